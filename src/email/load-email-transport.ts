import type { Logger } from 'pino';
import { ProjectError } from '../core/errors.js';
import { isRecord } from '../core/is-record.js';
import { loadProviderPackage, messageOf } from '../project/load-provider-package.js';
import { createEmailTransport } from './create-email-transport.js';
import type { EmailConfig, EmailTransport, ProviderEmailConfig } from './email-transport.js';
import { createLogTransport } from './log-transport.js';
import { createProviderEmailTransport, type StrapiEmailProvider } from './provider-email-transport.js';

/** The transport emails go through, and the start-up notices about it. */
export interface LoadedEmailTransport {
  readonly transport: EmailTransport;
  /** One line each, logged at start: a missing provider the project chose to run without. */
  readonly notices: readonly string[];
}

/**
 * The transport for `email.config`, at start: the log and nodemailer transports Cairn carries
 * (create-email-transport.ts); any other provider is loaded from the project's `node_modules`
 * (load-provider-package.ts) and started once with `init(providerOptions, settings)`. A provider
 * package that is not installed stops the start with one line naming the package to install,
 * unless `missingProvider: 'fallback'`: then emails are logged and a notice says so. A provider
 * whose `init` throws or that has no `send` stops the start too.
 */
export async function loadEmailTransport(
  config: EmailConfig,
  options: { readonly projectDir: string; readonly logger: Logger },
): Promise<LoadedEmailTransport> {
  if (config.kind !== 'provider') return { transport: createEmailTransport(config, options.logger), notices: [] };
  const loaded = await loadProviderPackage(options.projectDir, 'email', config.provider);
  if (loaded.kind === 'loaded') {
    const label = `config/plugins: email provider "${config.provider}" (${loaded.module.packageName})`;
    return {
      transport: createProviderEmailTransport(await start(config, loaded.module.init, label), config.settings),
      notices: [],
    };
  }
  const missing = `email provider "${config.provider}" is not installed in ${options.projectDir} (npm install ${loaded.packageName})`;
  if (config.missingProvider === 'fail') {
    throw new ProjectError(
      `config/plugins: ${missing}; install it, or set email.config.missingProvider: 'fallback' to log emails instead`,
    );
  }
  return {
    transport: createLogTransport(options.logger),
    notices: [`${missing}: emails are logged, not sent (email.config.missingProvider: 'fallback')`],
  };
}

async function start(
  config: ProviderEmailConfig,
  init: (...args: unknown[]) => unknown,
  label: string,
): Promise<StrapiEmailProvider> {
  let instance: unknown;
  try {
    instance = await init(config.providerOptions, config.settings);
  } catch (error) {
    throw new ProjectError(`${label} failed to start: ${messageOf(error)}`);
  }
  if (!isRecord(instance) || typeof instance.send !== 'function')
    throw new ProjectError(`${label}: init() returned no provider with a send method`);
  return instance as unknown as StrapiEmailProvider;
}
