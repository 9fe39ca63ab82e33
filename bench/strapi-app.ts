import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The reference Strapi app (../shared/reference/strapi.sh) as the benchmarks drive it. */

/** Refuses a folder without Strapi installed (and its GraphQL plugin when asked), or with Strapi running from it. */
export function checkStrapiApp(strapiDir: string, needs: { readonly graphql: boolean }): void {
  if (!existsSync(join(strapiDir, 'node_modules/@strapi/strapi')))
    throw new Error(`${strapiDir} has no node_modules/@strapi/strapi: run strapi.sh setup there first`);
  if (needs.graphql && !existsSync(join(strapiDir, 'node_modules/@strapi/plugin-graphql')))
    throw new Error(`${strapiDir} has no @strapi/plugin-graphql: run strapi.sh graphql ${strapiDir} first`);
  const pidFile = join(strapiDir, '.strapi.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {
      // not running
    }
    if (alive)
      throw new Error(`Strapi runs from ${strapiDir} (pid ${pid}): stop it first (strapi.sh stop ${strapiDir})`);
  }
}

/** What `strapi.sh reset` does before starting: the SQLite database and the uploaded files go. */
export function resetStrapi(strapiDir: string): void {
  const data = join(strapiDir, '.tmp');
  if (existsSync(data))
    for (const file of readdirSync(data)) if (file.startsWith('data.db')) rmSync(join(data, file), { force: true });
  const uploads = join(strapiDir, 'public/uploads');
  if (existsSync(uploads))
    for (const file of readdirSync(uploads))
      if (file !== '.gitkeep') rmSync(join(uploads, file), { recursive: true, force: true });
}

/**
 * Strapi 5.54 creates its "API Uploads" folder on the first upload, and two first uploads at once
 * both try to: one answers 500 (UNIQUE constraint failed: upload_folders.path) or never answers.
 * Seeding uploads two at a time, so one file is uploaded alone first and deleted again (with the
 * full-access token the reference app writes to .api-token), leaving the media library empty.
 */
export async function warmStrapiUploads(baseUrl: string, strapiDir: string): Promise<void> {
  const { default: sharp } = await import('sharp');
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('files', new Blob([png], { type: 'image/png' }), 'upload-warm-up.png');
  const response = await fetch(`${baseUrl}/api/upload`, { method: 'POST', body: form });
  const text = await response.text();
  if (response.status !== 201)
    throw new Error(`strapi: the warm-up upload answered ${response.status}: ${text.slice(0, 300)}`);
  const id = (JSON.parse(text) as { id: number }[])[0]?.id;
  const tokenFile = join(strapiDir, '.api-token');
  const token = existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : '';
  const deleted = await fetch(`${baseUrl}/api/upload/files/${String(id)}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  await deleted.arrayBuffer();
  if (deleted.status !== 200)
    process.stderr.write(
      `strapi: the warm-up upload (file ${String(id)}) could not be deleted (${deleted.status}); it stays in the media library\n`,
    );
}
