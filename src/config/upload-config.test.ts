import { describe, expect, it } from 'vitest';
import { ProjectError } from '../core/errors.js';
import { normalizeUploadConfig } from './upload-config.js';

const DIR = '/srv/project';

describe('normalizeUploadConfig providers', () => {
  it('defaults to the local provider, failing on a missing package', () => {
    expect(normalizeUploadConfig(undefined, undefined, DIR)).toMatchObject({
      provider: 'local',
      providerOptions: {},
      actionOptions: {},
      missingProvider: 'fail',
    });
  });

  it('keeps a provider package name as written, with its options', () => {
    const raw = {
      provider: 'aws-s3',
      providerOptions: { s3Options: { params: { Bucket: 'b' } } },
      actionOptions: { upload: { ACL: null }, delete: {} },
      missingProvider: 'fallback',
    };
    expect(normalizeUploadConfig(raw, undefined, DIR)).toMatchObject(raw);
  });

  it.each<[unknown, string]>([
    [{ provider: '' }, 'config/plugins: upload "provider" must be a package name such as "aws-s3", got ""'],
    [{ provider: 3 }, 'config/plugins: upload "provider" must be a package name such as "aws-s3", got 3'],
    [{ providerOptions: 'x' }, 'config/plugins: upload "providerOptions" must be an object, got "x"'],
    [{ actionOptions: [] }, 'config/plugins: upload "actionOptions" must be an object, got []'],
    [{ missingProvider: true }, 'config/plugins: upload "missingProvider" must be "fail" or "fallback", got true'],
  ])('refuses %j', (raw, message) => {
    expect(() => normalizeUploadConfig(raw, undefined, DIR)).toThrow(ProjectError);
    expect(() => normalizeUploadConfig(raw, undefined, DIR)).toThrow(message);
  });
});
