import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseKind } from '../databases.js';
import {
  addDefaultQueries,
  create,
  expectCleanStart,
  paragraph,
  printedDefaultQueries,
  restartWith,
  smallPng,
  startProject,
  uploadFile,
  type StartedProject,
} from './start-project.js';

/*
 * The marketing site (test/fixtures/projects/marketing-site): pages built from eleven kinds of
 * sections, a blog, a localized global single type, and the populate middlewares Cairn reads
 * and prints as config/api defaultQueries.
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

    it('starts unchanged, printing the populate middlewares it does not run', () => {
      expectCleanStart(project, 1);
      const printed = printedDefaultQueries(project.server.app.notices);
      for (const route of [
        'api::page.page.find',
        'api::page.page.findOne',
        'api::article.article.find',
        'api::global.global.find',
      ])
        expect(printed).toContain(`'${route}'`);
    });

    it("sends config/middlewares.ts's security headers", async () => {
      const response = await project.call('GET', '/api/authors');
      expect(response.headers['content-security-policy']).toContain(
        "img-src 'self' data: blob: market-assets.strapi.io res.cloudinary.com",
      );
    });

    it('links pages to their parent and children (a self relation)', async () => {
      const child = await create(project, 'pages', { title: 'Pricing', slug: 'pricing', parent: page.documentId });
      const read = await project.call('GET', `/api/pages/${page.documentId}?populate[children][fields][0]=slug`);
      expect(read.json.data.children).toEqual([{ id: child.id, documentId: child.documentId, slug: 'pricing' }]);
      const back = await project.call('GET', `/api/pages/${child.documentId}?populate[parent][fields][0]=slug`);
      expect(back.json.data.parent.slug).toBe('home');
      await project.call('DELETE', `/api/pages/${child.documentId}`);
    });

    it('answers without populate shallow, as Cairn runs no middleware', async () => {
      const pages = (await project.call('GET', '/api/pages')).json.data as Doc[];
      expect(pages.map((p) => p.title)).toEqual(['Ship faster']);
      expect(pages[0]).not.toHaveProperty('sections');
    });

    it('reads the page back with an `on` populate through every nesting level', async () => {
      const query =
        '/api/pages?filters[slug][$eq]=home&populate[seo][populate]=*' +
        '&populate[sections][on][sections.hero][populate]=*' +
        '&populate[sections][on][sections.pricing][populate][plans][populate]=*' +
        '&populate[sections][on][sections.feature-grid][populate][features][populate]=*' +
        '&populate[sections][on][sections.logo-cloud][populate]=*' +
        '&populate[sections][on][sections.latest-articles][populate][articles][fields][0]=title';
      const [home] = (await project.call('GET', query)).json.data as Doc[];
      const sections = home!.sections as Doc[];
      // as Strapi: with `on`, the zone holds only the components it names, in their order
      expect(sections.map((s) => s.__component)).toEqual([
        'sections.hero',
        'sections.feature-grid',
        'sections.pricing',
        'sections.logo-cloud',
        'sections.latest-articles',
      ]);
      const [hero, features, pricing, logos, latest] = sections as [Doc, Doc, Doc, Doc, Doc];
      expect(hero.image.url).toMatch(/^\/uploads\/hero_[0-9a-f]{10}\.png$/);
      expect(hero.buttons.map((b: Doc) => [b.label, b.variant, b.newTab])).toEqual([
        ['Start', 'primary', false],
        ['Docs', 'outline', true],
      ]);
      expect(features.features[0].link).toMatchObject({ label: 'More', href: '/fast' });
      expect(features.features[0].icon.name).toBe('logo.png');
      expect(pricing.plans[0]).toMatchObject({ name: 'Team', price: 29.5, featured: true, button: { label: 'Buy' } });
      expect(pricing.plans[0].perks.map((p: Doc) => [p.text, p.included])).toEqual([
        ['Ten seats', true],
        ['Audit log', false],
      ]);
      expect(logos.logos.map((l: Doc) => l.name)).toEqual(['logo.png', 'hero.png']);
      expect(latest.articles).toEqual([{ id: expect.any(Number), documentId: ids.article, title: 'Launch day' }]);
      const all = (await project.call('GET', `/api/pages/${page.documentId}?populate[sections][populate]=*`)).json.data;
      expect(all.sections.map((s: Doc) => s.__component)).toEqual(
        (landingPage(ids).sections as Doc[]).map((s) => s.__component),
      );
      expect(all.sections[9]).toMatchObject({ heading: 'Ready?', text: null, button: { label: 'Go', href: '/go' } });
      expect(home!.seo.metaImage.name).toBe('hero.png');
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
      expect(articles.map((a) => [a.title, a.author.name, a.cover.name])).toEqual([['Launch day', 'Ana', 'hero.png']]);
      const sorted = (await project.call('GET', '/api/articles?sort=title:asc&fields[0]=title')).json.data as Doc[];
      expect(sorted.map((a) => a.title)).toEqual(['Another day', 'Launch day']);
    });

    it('answers deep without populate once the printed defaultQueries are in config/api.ts', async () => {
      const printed = printedDefaultQueries(project.server.app.notices);
      const restarted = await restartWith(project, (dir) => addDefaultQueries(dir, printed));
      try {
        const [home] = (await restarted.get('/api/pages')).data as Doc[];
        const hero = home!.sections.find((s: Doc) => s.__component === 'sections.hero');
        expect(Object.keys(hero.image).sort()).toEqual([
          'alternativeText',
          'documentId',
          'height',
          'id',
          'url',
          'width',
        ]);
        expect(hero.buttons.map((b: Doc) => b.label)).toEqual(['Start', 'Docs']);
        const pricing = home!.sections.find((s: Doc) => s.__component === 'sections.pricing');
        expect(pricing.plans[0].perks.map((p: Doc) => p.text)).toEqual(['Ten seats', 'Audit log']);
        expect(home!.seo.metaImage.url).toBe(hero.image.url);
        const one = (await restarted.get(`/api/pages/${page.documentId}`)).data as Doc;
        expect(one.sections).toHaveLength(11);
        const [article] = (await restarted.get('/api/articles?filters[title][$eq]=Launch day')).data as Doc[];
        expect(article!.author).toMatchObject({ name: 'Ana', avatar: null });
        expect(article!.categories.map((c: Doc) => c.slug)).toEqual(['news']);
        expect(article!.cover.formats).toBeNull();
        const global = (await restarted.get('/api/global')).data as Doc;
        expect(global.navbar.links.map((l: Doc) => l.label)).toEqual(['Pricing', 'Blog']);
        expect(global.footer.columns[0].links[0]).toMatchObject({ label: 'About', href: '/about' });
        expect(global.defaultSeo.metaTitle).toBe('Harbor');
        const own = (await restarted.get('/api/pages?populate[seo]=true')).data as Doc[];
        expect(own[0]).not.toHaveProperty('sections');
      } finally {
        await restarted.close();
      }
    });
  });
}
