import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { uploadBody, type UploadForm } from './support/multipart.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { gradientImage, objectNames, storedNames, tempLeftovers } from './support/uploads.js';

/*
 * The media library's admin routes (`/upload/...`) through HTTP, as Strapi 5.54's Media Library
 * screen calls them: settings and view configuration, uploads into folders, listing a folder,
 * folder create / rename / move, bulk move and bulk delete, on every database.
 */
for (const database of inject('databases')) {
  describe(`[${database}] the media library's admin routes`, () => {
    let server: TestServer;
    let auth: { jwt: string };
    let png: Buffer;
    let jpeg: Buffer;
    const call = (method: string, path: string, body?: unknown) =>
      server.request(method, path, { auth, ...(body === undefined ? {} : { body }) });
    const upload = (path: string, form: UploadForm) => {
      const body = uploadBody(form);
      return server.request('POST', path, { auth, payload: body.payload, headers: body.headers });
    };
    const folder = async (name: string, parent: number | null): Promise<{ id: number; path: string }> => {
      const response = await call('POST', '/upload/folders', { name, parent });
      expect(response.status).toBe(201);
      return response.json.data;
    };
    const listIn = async (folderId: number | null) => {
      const filter =
        folderId === null ? 'filters[$and][0][folder][id][$null]=true' : `filters[$and][0][folder][id]=${folderId}`;
      const response = await call('GET', `/upload/files?sort=name:ASC&page=1&pageSize=20&${filter}`);
      expect(response.status).toBe(200);
      return response.json.results as { id: number; name: string; folderPath: string; folder: { id: number } | null }[];
    };
    const rows = (sql: string) => server.app.db.all({ sql, params: [] });

    beforeAll(async () => {
      server = await startTestServer({ database });
      const registered = await server.request('POST', '/admin/register-admin', {
        body: { email: 'librarian@example.com', password: 'Librarian1234', firstname: 'Ada', lastname: 'Lovelace' },
      });
      expect(registered.status).toBe(200);
      auth = { jwt: registered.json.data.token };
      [png, jpeg] = await Promise.all([gradientImage(64, 64, 'png'), gradientImage(600, 400, 'jpeg')]);
    });
    afterAll(() => server?.close());

    it('answers 401 without an admin token', async () => {
      const response = await server.request('GET', '/upload/files');
      expect(response.status).toBe(401);
      expect(response.json.error.name).toBe('UnauthorizedError');
    });

    it('stores the view configuration and the settings; saved settings apply to the next upload', async () => {
      expect((await call('GET', '/upload/configuration')).json).toEqual({
        data: { pageSize: 10, sort: 'createdAt:DESC' },
      });
      expect((await call('PUT', '/upload/configuration', { pageSize: 20, sort: 'name:ASC' })).json).toEqual({
        data: { pageSize: 20, sort: 'name:ASC' },
      });
      expect((await call('GET', '/upload/configuration')).json.data).toEqual({ pageSize: 20, sort: 'name:ASC' });
      const badSort = await call('PUT', '/upload/configuration', { pageSize: 20, sort: 'id:ASC' });
      expect(badSort.status).toBe(400);
      expect(badSort.json.error.details.errors[0].path).toEqual(['sort']);

      const settings = {
        sizeOptimization: true,
        responsiveDimensions: false,
        autoOrientation: false,
        aiMetadata: true,
      };
      expect((await call('PUT', '/upload/settings', settings)).json).toEqual({ data: settings });
      expect((await call('GET', '/upload/settings')).json).toEqual({
        data: { ...settings, concurrentUploadRequests: 1 },
      });
      const noResponsive = await upload('/upload/files', { files: [{ filename: 'small.jpg', content: jpeg }] });
      expect(Object.keys(noResponsive.json.formats)).toEqual(['thumbnail']);
      await call('PUT', '/upload/settings', { ...settings, responsiveDimensions: true });
      const responsive = await upload('/upload/files', { files: [{ filename: 'small2.jpg', content: jpeg }] });
      expect(Object.keys(responsive.json.formats).sort()).toEqual(['small', 'thumbnail']);
      expect((await call('PUT', '/upload/settings', { sizeOptimization: 'x' })).status).toBe(400);
      const ids = [noResponsive.json.id, responsive.json.id];
      expect((await call('POST', '/upload/actions/bulk-delete', { fileIds: ids })).status).toBe(200);
    });

    it('creates folders with Strapi’s paths, refusing a taken name, a missing parent and a slash', async () => {
      const photos = await folder('Photos', null);
      const trips = await folder('Trips', photos.id);
      expect(trips.path).toBe(`${photos.path}/${trips.path.split('/').at(-1)}`);
      const taken = await call('POST', '/upload/folders', { name: 'Photos', parent: null });
      expect(taken.status).toBe(400);
      expect(taken.json.error.message).toBe('A folder with this name already exists');
      expect((await call('POST', '/upload/folders', { name: 'Photos', parent: photos.id })).status).toBe(201);
      const orphan = await call('POST', '/upload/folders', { name: 'X', parent: 99999 });
      expect(orphan.json.error.message).toBe('parent folder does not exist');
      expect((await call('POST', '/upload/folders', { name: 'a/b', parent: null })).status).toBe(400);
      expect((await call('GET', '/upload/folder-structure')).json.data).toEqual([
        {
          id: photos.id,
          name: 'Photos',
          children: [
            { id: expect.any(Number), name: 'Photos', children: [] },
            { id: trips.id, name: 'Trips', children: [] },
          ],
        },
      ]);
    });

    it('uploads into a folder, lists a folder’s files, renames and moves a file, counts a folder’s content', async () => {
      const docs = await folder('Docs', null);
      const inDocs = await upload('/upload/files', {
        files: [{ filename: 'editor-photo.jpg', content: jpeg, contentType: 'image/jpeg' }],
        fileInfo: { name: 'editor-photo.jpg', caption: null, alternativeText: null, folder: docs.id },
      });
      expect(inDocs.status).toBe(201);
      expect(inDocs.json).toMatchObject({ name: 'editor-photo.jpg', folderPath: docs.path, isUrlSigned: false });
      const atRoot = await upload('/upload', {
        files: [
          { filename: 'a.png', content: png, contentType: 'image/png' },
          { filename: 'b.png', content: png, contentType: 'image/png' },
        ],
      });
      expect(atRoot.status).toBe(201);
      expect(atRoot.json.map((file: { folderPath: string }) => file.folderPath)).toEqual(['/', '/']);

      expect((await listIn(docs.id)).map((file) => [file.name, file.folder?.id])).toEqual([
        ['editor-photo.jpg', docs.id],
      ]);
      expect((await listIn(null)).map((file) => file.name)).toEqual(['a.png', 'b.png']);
      const creators = await rows(
        `select created_by_id as c, updated_by_id as u from files where id = ${inDocs.json.id}`,
      );
      expect(creators.map((row) => [Number(row.c), Number(row.u)])).toEqual([[1, 1]]);

      const moved = await call('POST', `/upload?id=${atRoot.json[0].id}`, {
        fileInfo: { name: 'renamed.png', folder: docs.id },
      });
      expect(moved.status).toBe(200);
      expect(moved.json).toMatchObject({ name: 'renamed.png', folderPath: docs.path });
      const one = await call('GET', `/upload/folders/${docs.id}`);
      expect(one.json.data).toMatchObject({ name: 'Docs', children: { count: 0 }, files: { count: 2 } });
      expect((await call('GET', '/upload/folders/99999')).status).toBe(404);
      expect((await call('GET', `/upload/files/${inDocs.json.id}`)).json.folder).toMatchObject({ id: docs.id });
      const missingFolder = await upload('/upload/files', {
        files: [{ filename: 'c.png', content: png }],
        fileInfo: { folder: 99999 },
      });
      expect(missingFolder.status).toBe(400);
      expect((await call('GET', '/upload/folders?filters[name][$eq]=API%20Uploads')).json.data).toEqual([]);
      expect(tempLeftovers(server)).toEqual([]);
    });

    it('moves folders with everything below them, and refuses a folder inside itself or a taken name', async () => {
      const top = await folder('Top', null);
      const middle = await folder('Middle', top.id);
      const bottom = await folder('Bottom', middle.id);
      const file = await upload('/upload/files', {
        files: [{ filename: 'deep.png', content: png }],
        fileInfo: { folder: bottom.id },
      });
      const moved = await call('POST', '/upload/actions/bulk-move', {
        folderIds: [middle.id],
        fileIds: [],
        destinationFolderId: null,
      });
      expect(moved.status).toBe(200);
      const middleId = middle.path.split('/').at(-1);
      const bottomId = bottom.path.split('/').at(-1);
      expect(moved.json.data.folders).toMatchObject([{ id: middle.id, path: `/${middleId}` }]);
      expect((await call('GET', `/upload/folders/${bottom.id}`)).json.data.path).toBe(`/${middleId}/${bottomId}`);
      expect((await call('GET', `/upload/files/${file.json.id}`)).json.folderPath).toBe(`/${middleId}/${bottomId}`);

      const inside = await call('POST', '/upload/actions/bulk-move', {
        folderIds: [middle.id],
        destinationFolderId: bottom.id,
      });
      expect(inside.status).toBe(400);
      expect(inside.json.error.message).toBe(
        'folders cannot be moved inside themselves or one of its children: Middle',
      );
      await folder('Middle', top.id);
      const taken = await call('POST', '/upload/actions/bulk-move', {
        folderIds: [middle.id],
        destinationFolderId: top.id,
      });
      expect(taken.json.error.message).toBe('some folders already exists: Middle');

      const renamed = await call('PUT', `/upload/folders/${middle.id}`, { name: 'Center', parent: top.id });
      expect(renamed.status).toBe(200);
      expect(renamed.json.data).toMatchObject({ name: 'Center', path: `${top.path}/${middleId}` });
      expect((await call('GET', `/upload/files/${file.json.id}`)).json.folderPath).toBe(
        `${top.path}/${middleId}/${bottomId}`,
      );
      const withParents = await call(
        'GET',
        `/upload/folders?filters[id][$in][0]=${middle.id}&filters[id][$in][1]=${bottom.id}&sort=id:asc&populate[parent]=*`,
      );
      expect(withParents.json.data).toMatchObject([
        { id: middle.id, parent: { id: top.id }, children: { count: 1 }, files: { count: 0 } },
        { id: bottom.id, parent: { id: middle.id }, children: { count: 0 }, files: { count: 1 } },
      ]);
      const intoChild = await call('PUT', `/upload/folders/${middle.id}`, { parent: bottom.id });
      expect(intoChild.json.error.message).toBe('folder cannot be moved inside itself');

      const files = await call('POST', '/upload/actions/bulk-move', {
        fileIds: [file.json.id],
        destinationFolderId: null,
      });
      expect(files.json.data.files).toMatchObject([{ id: file.json.id, folderPath: '/' }]);
      expect((await listIn(bottom.id)).length).toBe(0);
    });

    it('bulk-deletes files and folders with everything in them, stored objects included', async () => {
      const trash = await folder('Trash', null);
      const sub = await folder('Sub', trash.id);
      const inSub = await upload('/upload/files', {
        files: [{ filename: 'gone.jpg', content: jpeg }],
        fileInfo: { folder: sub.id },
      });
      const loose = await upload('/upload/files', { files: [{ filename: 'loose.png', content: png }] });
      const objects = [...objectNames(inSub.json), ...objectNames(loose.json)];
      expect(storedNames(server)).toEqual(expect.arrayContaining(objects));

      const deleted = await call('POST', '/upload/actions/bulk-delete', {
        fileIds: [loose.json.id],
        folderIds: [trash.id],
      });
      expect(deleted.status).toBe(200);
      expect(deleted.json.data.files.map((file: { id: number }) => file.id)).toEqual([loose.json.id]);
      expect(deleted.json.data.folders.map((f: { id: number }) => f.id)).toEqual([trash.id]);
      expect(storedNames(server).filter((name) => objects.includes(name))).toEqual([]);
      expect((await call('GET', `/upload/folders/${sub.id}`)).status).toBe(404);
      expect((await call('GET', `/upload/files/${inSub.json.id}`)).status).toBe(404);
      const links = await rows(
        `select count(*) as n from upload_folders_parent_lnk where folder_id in (${trash.id}, ${sub.id}) or inv_folder_id in (${trash.id}, ${sub.id})`,
      );
      expect(Number(links[0]?.n)).toBe(0);

      const single = await upload('/upload/files', { files: [{ filename: 'single.png', content: png }] });
      expect((await call('DELETE', `/upload/files/${single.json.id}`)).json).toMatchObject({ id: single.json.id });
      expect((await call('DELETE', `/upload/files/${single.json.id}`)).status).toBe(404);
    });

    it('leaves the content API’s uploads in API Uploads', async () => {
      const body = uploadBody({ files: [{ filename: 'api.png', content: png, contentType: 'image/png' }] });
      const response = await server.request('POST', '/api/upload', {
        auth: 'full',
        payload: body.payload,
        headers: body.headers,
      });
      expect(response.status).toBe(201);
      const [apiFolder] = (await call('GET', '/upload/folders?filters[name][$eq]=API%20Uploads')).json.data;
      expect(apiFolder).toMatchObject({ name: 'API Uploads', files: { count: 1 } });
      expect((await listIn(apiFolder.id)).map((file) => file.name)).toEqual(['api.png']);
    });
  });
}
