import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseKind } from '../databases.js';
import { gql } from '../graphql.js';
import { seedCityPortal, type CityRefs } from './city-portal-documents.js';
import { expectCleanStart, startProject, type StartedProject } from './start-project.js';

/*
 * The city portal (test/fixtures/projects/city-portal): 21 content types and 84 components using
 * every attribute kind and relation kind, i18n on some types, drafts off on others, and the
 * GraphQL plugin.
 */

type Doc = Record<string, any>;

/** The city portal's scenario on one database. */
export function cityPortalScenario(database: DatabaseKind): void {
  describe(`[${database}] city portal: 21 types, 84 components, GraphQL`, () => {
    let project: StartedProject;
    let refs: CityRefs;
    let department: Doc;
    let news: Doc;

    beforeAll(async () => {
      project = await startProject('city-portal', database);
      ({ refs, department, news } = await seedCityPortal(project));
    });
    afterAll(() => project.server.close());

    it('starts cleanly with every type, component and the GraphQL endpoint', () => {
      expectCleanStart(project, 0, ['publisher']);
      const { schema, config } = project.server.app.project;
      expect([...schema.contentTypes.values()].filter((t) => t.origin === 'api')).toHaveLength(21);
      expect(schema.components.size).toBe(84);
      expect(config.graphql).toMatchObject({ endpoint: '/graphql', depthLimit: 12, defaultLimit: 20 });
      // src/index.js runs (its bootstrap); the migration does not. src/api/event/routes/event.js is
      // the generator's core router, unchanged: not listed.
      expect(project.server.app.project.ignoredFiles).toEqual([
        'database/migrations/2025.02.03T00.00.00.backfill-district-slugs.js',
      ]);
      expect(project.server.app.project.code?.files.index?.path).toBe('src/index.js');
    });

    it("answers CORS as config/middlewares.js's function form configures it", async () => {
      const origin = async (value: string) =>
        (await project.server.request('GET', '/api/tags', { auth: 'full', headers: { origin: value } })).headers[
          'access-control-allow-origin'
        ];
      expect(await origin('https://www.riverton.example')).toBe('https://www.riverton.example');
      expect(await origin('https://elsewhere.example')).toBeUndefined();
    });

    it('reads components four levels deep and both sides of a oneToOne and a oneToMany', async () => {
      const query =
        '/api/departments?filters[code][$eq]=PW&populate[contact][populate][contact][populate][address][populate]=geo' +
        '&populate[hours][populate][days][populate]=slots&populate[head][fields][0]=lastName&populate[staff][fields][0]=lastName';
      const [pw] = (await project.call('GET', query)).json.data as Doc[];
      expect(pw!.contact.contact.address).toMatchObject({
        street: 'Market St',
        city: 'Riverton',
        geo: { latitude: 52.52, longitude: 13.405, zoom: 15 },
      });
      expect(
        pw!.hours.days.map((d: Doc) => [d.day, d.closed, d.slots.map((t: Doc) => `${t.opens}-${t.closes}`)]),
      ).toEqual([
        ['monday', false, ['08:00:00.000-12:00:00.000', '13:00:00.000-16:30:00.000']],
        ['friday', true, []],
      ]);
      expect([pw!.head.lastName, pw!.staff.map((o: Doc) => o.lastName)]).toEqual(['Ruiz', ['Ruiz']]);
      const mayor = (
        await project.call('GET', `/api/officials/${refs.mayor}?populate[heads][fields][0]=code&populate=seats`)
      ).json.data;
      expect(mayor.heads.code).toBe('PW');
    });

    it('filters on datetimes and sorts events, with their schedule, tickets, venue and one-way organizer', async () => {
      const query =
        '/api/events?filters[startsAt][$gte]=2026-06-01T00:00:00.000Z&sort=startsAt:asc&populate[schedule][populate][sessions][populate]=speakers' +
        '&populate[tickets][populate]=price&populate[venue][fields][0]=name&populate[organizer][fields][0]=code&populate[tags][fields][0]=name';
      const events = (await project.call('GET', query)).json.data as Doc[];
      expect(events.map((e) => e.title)).toEqual(['Summer concert']);
      const [concert] = events as [Doc];
      expect(
        concert.schedule.sessions.map((s: Doc) => [s.title, s.startsAt, s.endsAt, s.speakers.map((p: Doc) => p.name)]),
      ).toEqual([
        ['Opening', '18:00:00.000', '18:30:00.000', ['Mayor Ruiz']],
        ['Orchestra', '18:30:00.000', '21:45:00.000', []],
      ]);
      expect(concert.tickets.map((t: Doc) => [t.name, t.price.amount, t.price.currency])).toEqual([
        ['Adult', 12.5, 'EUR'],
        ['Child', 0, 'EUR'],
      ]);
      expect([concert.venue.name, concert.organizer.code, concert.tags[0].name]).toEqual([
        'River stage',
        'PW',
        'culture',
      ]);
      const all = (await project.call('GET', '/api/events?sort=startsAt:desc&fields[0]=title')).json.data as Doc[];
      expect(all.map((e) => e.title)).toEqual(['Summer concert', 'Spring market']);
    });

    it('answers a localized article per locale and its dynamic zone through `on`', async () => {
      const list = (locale: string) =>
        project.call(
          'GET',
          `/api/news-articles?locale=${locale}&fields[0]=title&fields[1]=locale&fields[2]=priority&populate[districts][fields][0]=name`,
        );
      const fr = (await list('fr')).json.data as Doc[];
      expect(fr.map((n) => [n.title, n.locale, n.priority, n.districts.map((d: Doc) => d.name)])).toEqual([
        ['Pont fermé pour travaux', 'fr', 'important', ['Oldtown']],
      ]);
      const en = (await list('en')).json.data as Doc[];
      expect(en.map((n) => [n.title, n.locale, n.districts.map((d: Doc) => d.name)])).toEqual([
        ['Bridge closed for repairs', 'en', ['Oldtown', 'Riverside']],
      ]);
      const query =
        `/api/news-articles/${news.documentId}?populate[sections][on][blocks.map][populate][markers][populate]=position` +
        '&populate[sections][on][blocks.accordion][populate][items][populate]=links&populate[sections][on][blocks.table]=true&populate[attachments]=true';
      const doc = (await project.call('GET', query)).json.data as Doc;
      const [map, accordion, table] = doc.sections as [Doc, Doc, Doc];
      expect(map.markers[0].position).toMatchObject({ latitude: 52.501, longitude: 13.402 });
      expect(accordion.items[0].links[0]).toMatchObject({ label: 'Plan', url: '/plan', external: false });
      expect(table.data).toEqual({ columns: ['day', 'lanes'], rows: [['Mon', 0]] });
      expect(doc.attachments.map((f: Doc) => f.name)).toEqual(['leaflet.txt', 'bridge.png']);
      expect(doc.priority).toBe('important');
    });

    it('keeps big integers exact, hides passwords and private fields, follows one-way relations', async () => {
      const [tender] = (
        await project.call('GET', '/api/tenders?populate[lots]=true&populate[specification][populate]=file')
      ).json.data as Doc[];
      expect([tender!.estimatedValue, tender!.lots.map((l: Doc) => l.estimatedValue)]).toEqual([
        '9007199254740993',
        ['120000000000', '35000000'],
      ]);
      expect(tender!.specification).toMatchObject({ title: 'Specification', pages: 40, file: { name: 'leaflet.txt' } });
      expect(tender!.specification).not.toHaveProperty('checksum');
      const [library] = (await project.call('GET', '/api/facilities')).json.data as Doc[];
      expect(library).toMatchObject({ name: 'Central library', kind: 'library' });
      expect(library).not.toHaveProperty('wifiPassword');
      const settings = (await project.call('GET', '/api/site-setting?populate[menu][populate]=children')).json
        .data as Doc;
      expect(settings).not.toHaveProperty('apiKey');
      expect(settings.menu[0].children[0]).toMatchObject({ label: 'Permits', highlight: false });
      const home = (
        await project.call('GET', '/api/homepage?populate[featuredNews][fields][0]=slug&populate[sections][populate]=*')
      ).json.data as Doc;
      expect(home.featuredNews.map((n: Doc) => n.slug)).toEqual(['bridge-closed']);
      expect(home.sections.map((s: Doc) => s.__component)).toEqual(['blocks.quick-links', 'blocks.contact-box']);
      const [meeting] = (
        await project.call(
          'GET',
          '/api/council-meetings?populate[agenda][populate][motion][populate]=vote&populate[attendees][fields][0]=lastName',
        )
      ).json.data as Doc[];
      expect(meeting!.agenda[0].motion.vote).toMatchObject({ yes: 21, no: 3, abstain: 1, result: 'adopted' });
      expect(meeting!.attendees.map((o: Doc) => o.lastName)).toEqual(['Ruiz']);
      const [bridge] = (
        await project.call('GET', '/api/projects?populate[phases][populate]=milestones&populate[budget]=true')
      ).json.data as Doc[];
      expect([bridge!.budgetTotal, bridge!.completion, bridge!.budget[0].planned]).toEqual([
        '48000000',
        37.5,
        1200000.5,
      ]);
      expect(bridge!.phases[0].milestones[0]).toMatchObject({ title: 'Drafts', due: '2025-06-30', done: true });
    });

    it('answers GraphQL with relations, nested components and a locale', async () => {
      const response = await gql(
        project.server,
        `query ($code: String) {
        departments(filters: { code: { eq: $code } }) {
          name
          head { lastName party }
          hours { days { day slots { opens closes } } }
          contact { contact { email address { city geo { latitude } } } }
        }
        events(sort: "startsAt:asc") { title venue { name } tickets { name price { amount currency } } schedule { sessions { title speakers { name } } } }
        newsArticles(locale: "fr") { title locale tags { name } }
      }`,
        { code: 'PW' },
        { auth: 'full' },
      );
      expect(response.status, response.text).toBe(200);
      expect(response.json.errors).toBeUndefined();
      const { departments, events, newsArticles } = response.json.data as Doc;
      expect(departments).toEqual([
        {
          name: 'Public Works',
          head: { lastName: 'Ruiz', party: 'independent' },
          hours: {
            days: [
              {
                day: 'monday',
                slots: [
                  { opens: '08:00:00.000', closes: '12:00:00.000' },
                  { opens: '13:00:00.000', closes: '16:30:00.000' },
                ],
              },
              { day: 'friday', slots: [] },
            ],
          },
          contact: {
            contact: { email: 'works@riverton.example', address: { city: 'Riverton', geo: { latitude: 52.52 } } },
          },
        },
      ]);
      expect(events.map((e: Doc) => e.title)).toEqual(['Spring market', 'Summer concert']);
      expect(events[1]).toMatchObject({
        venue: { name: 'River stage' },
        tickets: [{ name: 'Adult', price: { amount: 12.5, currency: 'EUR' } }, { name: 'Child' }],
      });
      expect(events[1].schedule.sessions[0]).toEqual({ title: 'Opening', speakers: [{ name: 'Mayor Ruiz' }] });
      expect(newsArticles).toEqual([{ title: 'Pont fermé pour travaux', locale: 'fr', tags: [{ name: 'traffic' }] }]);
    });

    it('answers a GraphQL dynamic zone by component type, and creates through a mutation', async () => {
      const home = await gql(
        project.server,
        `{ homepage {
          title featuredNews { slug }
          sections {
            __typename
            ... on ComponentBlocksQuickLinks { links { label url } }
            ... on ComponentBlocksContactBox { title hours { days { day slots { opens closes } } } }
          }
      } }`,
        undefined,
        { auth: 'full' },
      );
      expect(home.json).toEqual({
        data: {
          homepage: {
            title: 'Welcome to Riverton',
            featuredNews: [{ slug: 'bridge-closed' }],
            sections: [
              { __typename: 'ComponentBlocksQuickLinks', links: [{ label: 'Permits', url: '/permits' }] },
              {
                __typename: 'ComponentBlocksContactBox',
                title: 'Town hall',
                hours: { days: [{ day: 'monday', slots: [{ opens: '09:00:00.000', closes: '15:00:00.000' }] }] },
              },
            ],
          },
        },
      });
      const created = await gql(
        project.server,
        `mutation ($data: AnnouncementInput!) { createAnnouncement(data: $data) { title level pinned districts { name } } }`,
        {
          data: {
            title: 'Water outage',
            message: 'Mill Road, 9 to 12',
            level: 'danger',
            pinned: true,
            districts: [refs.riverside],
          },
        },
        { auth: 'full' },
      );
      expect(created.json).toEqual({
        data: {
          createAnnouncement: {
            title: 'Water outage',
            level: 'danger',
            pinned: true,
            districts: [{ name: 'Riverside' }],
          },
        },
      });
    });
  });
}
