import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseKind } from '../databases.js';
import {
  create,
  expectCleanStart,
  paragraph,
  smallPng,
  startProject,
  uploadFile,
  type StartedProject,
} from './start-project.js';

/*
 * The marketing site (test/fixtures/projects/marketing-site): pages built from eleven kinds of
 * sections, a blog, a localized global single type, and populate middlewares on the pages',
 * articles' and global's find routes (pages' findOne too) that run as in Strapi: their populate
 * replaces the request's.
 */

type Doc = Record<string, any>;

/** The marketing site's landing page: one section of each kind, nested components, media, a relation. */
export function landingPage(ids: { image: number; logo: number; article: string }): Record<string, unknown> {
  return {
    title: 'Ship faster',
    slug: 'home',
    description: 'The landing page',
    sections: [
      {
        __component: 'sections.hero',
        heading: 'Ship faster',
        subheading: 'Harbor builds your site',
        image: ids.image,
        buttons: [
          { label: 'Start', href: '/start', variant: 'primary' },
          { label: 'Docs', href: '/docs', variant: 'outline', newTab: true },
        ],
      },
      {
        __component: 'sections.feature-grid',
        heading: 'Features',
        columns: 2,
        features: [
          { title: 'Fast', description: 'Very', icon: ids.logo, link: { label: 'More', href: '/fast' } },
          { title: 'Safe', description: 'Also' },
        ],
      },
      {
        __component: 'sections.pricing',
        heading: 'Pricing',
        plans: [
          {
            name: 'Team',
            price: 29.5,
            period: 'month',
            featured: true,
            perks: [{ text: 'Ten seats' }, { text: 'Audit log', included: false }],
            button: { label: 'Buy', href: '/buy' },
          },
        ],
      },
      {
        __component: 'sections.testimonials',
        items: [{ quote: 'Great', authorName: 'Ana', rating: 5, avatar: ids.logo }],
      },
      { __component: 'sections.faq', questions: [{ question: 'Why?', answer: '**Because**' }] },
      { __component: 'sections.rich-text', body: paragraph('Plain words') },
      { __component: 'sections.logo-cloud', heading: 'Trusted by', logos: [ids.logo, ids.image] },
      { __component: 'sections.stats', items: [{ value: '99%', label: 'uptime' }] },
      { __component: 'sections.video', title: 'Tour', url: 'https://video.example/tour', poster: ids.image },
      { __component: 'sections.cta', heading: 'Ready?', button: { label: 'Go', href: '/go' } },
      { __component: 'sections.latest-articles', heading: 'News', articles: [ids.article] },
    ],
    seo: { metaTitle: 'Harbor', metaDescription: 'Harbor builds your site fast', metaImage: ids.image },
  };
}

/** The marketing site's global single type: header and footer components, three levels deep. */
export function globalSettings(logo: number): Record<string, unknown> {
  return {
    siteName: 'Harbor',
    favicon: logo,
    navbar: {
      logo,
      links: [
        { label: 'Pricing', href: '/pricing' },
        { label: 'Blog', href: '/blog' },
      ],
      cta: { label: 'Sign up', href: '/signup' },
    },
    footer: {
      copyright: '© Harbor',
      columns: [{ title: 'Company', links: [{ label: 'About', href: '/about' }] }],
      socials: [{ platform: 'github', url: 'https://github.example/harbor' }],
    },
    defaultSeo: { metaTitle: 'Harbor', metaDescription: 'Default description of the site' },
  };
}

/** The marketing site's scenario on one database. */
export function marketingSiteScenario(database: DatabaseKind): void {
  describe(`[${database}] marketing site: dynamic zones, populate middlewares, i18n`, () => {
    let project: StartedProject;
    let page: Doc;
    let ids: { image: number; logo: number; article: string };

    beforeAll(async () => {
      const png = await smallPng();
      project = await startProject('marketing-site', database);
      const image = await uploadFile(project.server, 'hero.png', png, 'image/png');
      const logo = await uploadFile(project.server, 'logo.png', png, 'image/png');
      const author = await create(project, 'authors', {
        name: 'Ana',
        socials: [{ platform: 'x', url: 'https://x/ana' }],
      });
      const news = await create(project, 'categories', { name: 'News', slug: 'news' });
      await project.call('PUT', `/api/categories/${news.documentId}?locale=fr`, {
        data: { name: 'Actualités', slug: 'actualites' },
      });
      const article = await create(project, 'articles', {
        title: 'Launch day',
        excerpt: 'We launched',
        content: paragraph('Today we launch.'),
        cover: image,
        author: author.documentId,
        categories: [news.documentId],
        sections: [{ __component: 'sections.cta', heading: 'Try it', button: { label: 'Try', href: '/try' } }],
        seo: { metaTitle: 'Launch', metaDescription: 'The launch day article' },
      });
      await create(project, 'articles', { title: 'Another day', author: author.documentId });
      ids = { image, logo, article: article.documentId };
      page = await create(project, 'pages', landingPage(ids));
      await project.call('PUT', `/api/pages/${page.documentId}?locale=fr`, {
        data: {
          title: 'Livrez plus vite',
          slug: 'accueil',
          sections: [{ __component: 'sections.rich-text', body: paragraph('Bonjour') }],
        },
      });
      await project.call('PUT', '/api/global', { data: globalSettings(logo) });
    });
    afterAll(() => project.server.close());

    it('starts cleanly, its populate middlewares among the project code it runs', () => {
      expectCleanStart(project, 0, ['seo']);
    });

    it("sends config/middlewares.ts's security headers", async () => {
      const response = await project.call('GET', '/api/authors');
      expect(response.headers['content-security-policy']).toContain(
        "img-src 'self' data: blob: market-assets.strapi.io res.cloudinary.com",
      );
    });

    it('links pages to their parent and children (a self relation)', async () => {
      // the page routes' populate is the middleware's: the relation is read through filters
      const child = await create(project, 'pages', { title: 'Pricing', slug: 'pricing', parent: page.documentId });
      const children = await project.call('GET', '/api/pages?filters[parent][slug][$eq]=home&fields[0]=slug');
      expect(children.json.data.map((p: Doc) => [p.documentId, p.slug])).toEqual([[child.documentId, 'pricing']]);
      const parents = await project.call('GET', '/api/pages?filters[children][slug][$eq]=pricing&fields[0]=slug');
      expect(parents.json.data.map((p: Doc) => p.slug)).toEqual(['home']);
      await project.call('DELETE', `/api/pages/${child.documentId}`);
    });

    it('answers deep without populate: its populate middlewares run', async () => {
      const [home] = (await project.call('GET', '/api/pages')).json.data as Doc[];
      const hero = home!.sections.find((s: Doc) => s.__component === 'sections.hero');
      expect(Object.keys(hero.image).sort()).toEqual(['alternativeText', 'documentId', 'height', 'id', 'url', 'width']);
      expect(hero.buttons.map((b: Doc) => b.label)).toEqual(['Start', 'Docs']);
      const pricing = home!.sections.find((s: Doc) => s.__component === 'sections.pricing');
      expect(pricing.plans[0].perks.map((p: Doc) => p.text)).toEqual(['Ten seats', 'Audit log']);
      expect(home!.seo.metaImage.url).toBe(hero.image.url);
      const one = (await project.call('GET', `/api/pages/${page.documentId}`)).json.data as Doc;
      expect(one.sections).toHaveLength(11);
      const [article] = (await project.call('GET', '/api/articles?filters[title][$eq]=Launch day')).json.data as Doc[];
      expect(article!.author).toMatchObject({ name: 'Ana', avatar: null });
      expect(article!.categories.map((c: Doc) => c.slug)).toEqual(['news']);
      expect(article!.cover.formats).toBeNull();
      const global = (await project.call('GET', '/api/global')).json.data as Doc;
      expect(global.navbar.links.map((l: Doc) => l.label)).toEqual(['Pricing', 'Blog']);
      expect(global.footer.columns[0].links[0]).toMatchObject({ label: 'About', href: '/about' });
      expect(global.defaultSeo.metaTitle).toBe('Harbor');
      // as in Strapi, the middleware's populate replaces the request's own
      const own = (await project.call('GET', '/api/pages?populate[seo]=true')).json.data as Doc[];
      expect(own[0]!.sections).toHaveLength(11);
    });

    it("populates with the middleware's `on` through every nesting level", async () => {
      const [home] = (await project.call('GET', '/api/pages?filters[slug][$eq]=home')).json.data as Doc[];
      const sections = home!.sections as Doc[];
      expect(sections.map((s) => s.__component)).toEqual(
        (landingPage(ids).sections as Doc[]).map((s) => s.__component),
      );
      const byKind = (kind: string) => sections.find((s) => s.__component === kind) as Doc;
      const hero = byKind('sections.hero');
      expect(hero.image.url).toMatch(/^\/uploads\/hero_[0-9a-f]{10}\.png$/);
      expect(hero.buttons.map((b: Doc) => [b.label, b.variant, b.newTab])).toEqual([
        ['Start', 'primary', false],
        ['Docs', 'outline', true],
      ]);
      const features = byKind('sections.feature-grid');
      expect(features.features[0].link).toMatchObject({ label: 'More', href: '/fast' });
      expect(features.features[0].icon.url).toMatch(/^\/uploads\/logo_[0-9a-f]{10}\.png$/);
      const pricing = byKind('sections.pricing');
      expect(pricing.plans[0]).toMatchObject({ name: 'Team', price: 29.5, featured: true, button: { label: 'Buy' } });
      expect(pricing.plans[0].perks.map((p: Doc) => [p.text, p.included])).toEqual([
        ['Ten seats', true],
        ['Audit log', false],
      ]);
      expect(byKind('sections.logo-cloud').logos.map((l: Doc) => l.url)).toEqual([
        expect.stringMatching(/\/logo_/),
        expect.stringMatching(/\/hero_/),
      ]);
      expect(byKind('sections.latest-articles').articles).toEqual([
        {
          id: expect.any(Number),
          documentId: ids.article,
          title: 'Launch day',
          slug: null,
          excerpt: 'We launched',
        },
      ]);
      expect(sections[9]).toMatchObject({ heading: 'Ready?', text: null, button: { label: 'Go', href: '/go' } });
      expect(home!.seo.metaImage.url).toBe(hero.image.url);
    });

    it('keeps each locale apart and filters, sorts and populates relations', async () => {
      const fr = (await project.call('GET', '/api/pages?locale=fr&populate=sections')).json.data as Doc[];
      expect(fr.map((p) => [p.title, p.slug, p.locale])).toEqual([['Livrez plus vite', 'accueil', 'fr']]);
      expect(fr[0]!.sections[0].body).toEqual(paragraph('Bonjour'));
      await project.call('PUT', '/api/global?locale=fr', {
        data: { siteName: 'Harbor FR', navbar: { links: [{ label: 'Tarifs', href: '/tarifs' }] } },
      });
      const globalFr = (await project.call('GET', '/api/global?locale=fr&populate[navbar][populate]=links')).json
        .data as Doc;
      expect([globalFr.siteName, globalFr.navbar.links.map((l: Doc) => l.label)]).toEqual(['Harbor FR', ['Tarifs']]);
      expect((await project.call('GET', '/api/global')).json.data.siteName).toBe('Harbor');
      const categories = (await project.call('GET', '/api/categories?locale=fr')).json.data as Doc[];
      expect(categories.map((c) => c.name)).toEqual(['Actualités']);
      const articles = (
        await project.call(
          'GET',
          '/api/articles?filters[categories][slug][$eq]=news&populate[author][fields][0]=name&populate[cover][fields][0]=name&sort=title:desc',
        )
      ).json.data as Doc[];
      // the middleware's populate: the cover's url, not its name
      expect(articles.map((a) => [a.title, a.author.name, a.cover.url])).toEqual([
        ['Launch day', 'Ana', expect.stringMatching(/\/hero_/)],
      ]);
      const sorted = (await project.call('GET', '/api/articles?sort=title:asc&fields[0]=title')).json.data as Doc[];
      expect(sorted.map((a) => a.title)).toEqual(['Another day', 'Launch day']);
    });
  });
}
