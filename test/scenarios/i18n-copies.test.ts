import { expect } from 'vitest';
import { scenario } from '../support/scenario.js';

/*
 * Two ways a localization copies another locale: a localized single type keeps its one document
 * across locales, and a shared component keeps its relations when a draft is copied to a draft.
 */

const file = (path: string, value: unknown) => ({ [path]: JSON.stringify(value, null, 2) });
const shared = { i18n: { localized: false } };
const localized = { i18n: { localized: true } };

const FILES = {
  ...file('src/api/homepage/content-types/homepage/schema.json', {
    kind: 'singleType',
    collectionName: 'homepages',
    info: { singularName: 'homepage', pluralName: 'homepages', displayName: 'Homepage' },
    options: { draftAndPublish: false },
    pluginOptions: localized,
    attributes: {
      heading: { type: 'string', pluginOptions: localized },
      theme: { type: 'string', pluginOptions: shared },
    },
  }),
  ...file('src/components/shared/featured.json', {
    collectionName: 'components_shared_featureds',
    info: { displayName: 'Featured' },
    attributes: {
      label: { type: 'string' },
      post: { type: 'relation', relation: 'oneToOne', target: 'api::article.article' },
    },
  }),
  ...file('src/api/page/content-types/page/schema.json', {
    kind: 'collectionType',
    collectionName: 'pages',
    info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
    options: { draftAndPublish: true },
    pluginOptions: localized,
    attributes: {
      heading: { type: 'string', pluginOptions: localized },
      feature: { type: 'component', component: 'shared.featured', pluginOptions: shared },
    },
  }),
};

scenario(
  'localizations of a single type, and shared components with relations',
  [
    {
      name: 'the homepage in en',
      method: 'PUT',
      path: '/api/homepage',
      auth: 'full',
      body: { data: { heading: 'Welcome', theme: 'dark' } },
      status: 200,
      save: { home: 'data.documentId' },
    },
    {
      name: 'PUT ?locale=fr adds the fr version of the same document, with the shared theme',
      method: 'PUT',
      path: '/api/homepage?locale=fr',
      auth: 'full',
      body: { data: { heading: 'Bienvenue' } },
      status: 200,
      check: (r, { vars }) =>
        expect(r.json.data).toMatchObject({ documentId: vars.home, heading: 'Bienvenue', theme: 'dark', locale: 'fr' }),
    },
    {
      name: 'en lists fr among its localizations',
      path: '/api/homepage?populate[localizations][fields][0]=heading',
      auth: 'full',
      status: 200,
      check: (r, { vars }) =>
        expect(r.json.data).toMatchObject({
          documentId: vars.home,
          heading: 'Welcome',
          localizations: [{ documentId: vars.home, heading: 'Bienvenue' }],
        }),
    },
    {
      name: 'a draft-only article',
      method: 'POST',
      path: '/api/articles?status=draft&fields[0]=title',
      auth: 'full',
      body: { data: { title: 'Draft post' } },
      status: 201,
      save: { post: 'data.documentId' },
    },
    {
      name: 'a draft page featuring it',
      method: 'POST',
      path: '/api/pages?status=draft&populate[feature][populate][post][fields][0]=title',
      auth: 'full',
      body: { data: { heading: 'EN', feature: { label: 'L', post: '{{post}}' } } },
      status: 201,
      save: { page: 'data.documentId' },
      check: (r) => expect(r.json.data.feature).toMatchObject({ label: 'L', post: { title: 'Draft post' } }),
    },
    {
      name: 'its fr draft copies the shared component with its link to the draft article',
      method: 'PUT',
      path: '/api/pages/{{page}}?locale=fr&status=draft&populate[feature][populate][post][fields][0]=title',
      auth: 'full',
      body: { data: { heading: 'FR' } },
      status: 200,
      check: (r) => expect(r.json.data.feature).toMatchObject({ label: 'L', post: { title: 'Draft post' } }),
    },
    {
      name: 'a draft write of the component in en reaches the fr draft, link included',
      method: 'PUT',
      path: '/api/pages/{{page}}?status=draft',
      auth: 'full',
      body: { data: { feature: { label: 'L2', post: '{{post}}' } } },
      status: 200,
    },
    {
      name: 'the fr draft',
      path: '/api/pages/{{page}}?locale=fr&status=draft&populate[feature][populate][post][fields][0]=title',
      auth: 'full',
      status: 200,
      check: (r) => expect(r.json.data.feature).toMatchObject({ label: 'L2', post: { title: 'Draft post' } }),
    },
  ],
  { files: FILES },
);
