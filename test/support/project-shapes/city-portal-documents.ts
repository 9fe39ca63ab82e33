import { NOTES } from '../uploads.js';
import { create, paragraph, smallPng, uploadFile, type StartedProject } from './start-project.js';

/*
 * The documents the city portal scenario (city-portal.ts) writes, deep enough to reach every
 * component level and relation kind the fixture declares.
 */

type Doc = Record<string, any>;

/** What the checks of the city portal look up after seeding. */
export interface CitySeed {
  readonly refs: CityRefs;
  readonly department: Doc;
  readonly news: Doc;
}

/** Media and documents of the city portal that other documents point at. */
export interface CityRefs {
  readonly photo: number;
  readonly leaflet: number;
  readonly oldtown: string;
  readonly riverside: string;
  readonly mayor: string;
  readonly traffic: string;
  readonly culture: string;
}

/** The Public Works department: a contact four components deep, opening hours three deep, its head. */
export function publicWorks(refs: CityRefs): Record<string, unknown> {
  return {
    name: 'Public Works',
    slug: 'public-works',
    code: 'PW',
    mission: 'Roads, **bridges** and parks.',
    contact: {
      name: 'Front desk',
      contact: {
        phone: '+49 30 1234',
        email: 'works@riverton.example',
        address: {
          street: 'Market St',
          houseNumber: '1',
          postalCode: '10115',
          geo: { latitude: 52.52, longitude: 13.405 },
        },
      },
    },
    hours: {
      note: 'Closed on holidays',
      days: [
        {
          day: 'monday',
          slots: [
            { opens: '08:00:00', closes: '12:00:00' },
            { opens: '13:00:00.000', closes: '16:30:00' },
          ],
        },
        { day: 'friday', closed: true },
      ],
    },
    head: refs.mayor,
  };
}

/** A council event at a venue: a schedule of sessions with speakers, priced tickets, tags. */
export function summerConcert(refs: CityRefs, venue: string, organizer: string): Record<string, unknown> {
  return {
    title: 'Summer concert',
    slug: 'summer-concert',
    summary: 'Music by the river',
    description: 'Bring a *blanket*.',
    startsAt: '2026-07-04T18:00:00.000Z',
    endsAt: '2026-07-04T22:00:00.000Z',
    free: false,
    category: 'culture',
    poster: refs.photo,
    schedule: {
      timezone: 'Europe/Berlin',
      sessions: [
        {
          title: 'Opening',
          day: '2026-07-04',
          startsAt: '18:00:00.000',
          endsAt: '18:30:00',
          speakers: [{ name: 'Mayor Ruiz', role: 'host' }],
        },
        { title: 'Orchestra', day: '2026-07-04', startsAt: '18:30:00', endsAt: '21:45:00', speakers: [] },
      ],
    },
    tickets: [
      { name: 'Adult', price: { amount: 12.5, currency: 'EUR' }, available: 300 },
      { name: 'Child', price: { amount: 0 }, available: 100 },
    ],
    registration: { required: false, deadline: '2026-07-01T12:00:00.000Z', contactEmail: 'events@riverton.example' },
    venue,
    organizer,
    tags: [refs.culture],
  };
}

/** A news article whose dynamic zone reaches components three levels down (map → marker → point). */
export function roadworksNews(refs: CityRefs, department: string): Record<string, unknown> {
  return {
    title: 'Bridge closed for repairs',
    slug: 'bridge-closed',
    teaser: 'The old bridge closes for six weeks.',
    body: paragraph('Detours are signposted.'),
    publishedOn: '2026-05-02',
    priority: 'important',
    image: refs.photo,
    attachments: [refs.leaflet, refs.photo],
    sections: [
      {
        __component: 'blocks.alert-banner',
        level: 'warning',
        message: 'Detour via Mill Road',
        validUntil: '2026-06-15T00:00:00.000Z',
      },
      {
        __component: 'blocks.map',
        title: 'Detour',
        center: { latitude: 52.5, longitude: 13.4, zoom: 14 },
        markers: [{ label: 'Bridge', category: 'other', position: { latitude: 52.501, longitude: 13.402 } }],
      },
      {
        __component: 'blocks.accordion',
        items: [{ question: 'How long?', answer: 'Six weeks.', links: [{ label: 'Plan', url: '/plan' }] }],
      },
      { __component: 'blocks.table', caption: 'Closures', data: { columns: ['day', 'lanes'], rows: [['Mon', 0]] } },
      { __component: 'blocks.text-blocks', content: paragraph('More soon.') },
    ],
    seo: { metaTitle: 'Bridge closed', noIndex: false },
    tags: [refs.traffic],
    department,
    districts: [refs.oldtown, refs.riverside],
  };
}

/** A tender with big integers beyond JavaScript's safe range and its specification document. */
export function bridgeTender(specification: string): Record<string, unknown> {
  return {
    title: 'Bridge repair works',
    reference: 'T-2026-017',
    procedure: 'open',
    estimatedValue: '9007199254740993',
    lots: [
      { number: 1, title: 'Steel', estimatedValue: '120000000000', cpvCode: '45221111' },
      { number: 2, title: 'Paving', estimatedValue: '35000000' },
    ],
    deadlines: [{ kind: 'submission', at: '2026-06-30T10:00:00.000Z' }],
    contact: 'procurement@riverton.example',
    specification,
  };
}

/** A council meeting: agenda items holding a motion holding a vote (three levels), and attendees. */
export function councilMeeting(refs: CityRefs): Record<string, unknown> {
  return {
    title: 'Council session 12',
    startsAt: '2026-05-20T17:00:00.000Z',
    room: 'Town hall',
    agenda: [
      {
        number: '1',
        title: 'Bridge budget',
        documents: [{ title: 'Budget', file: refs.leaflet, language: 'en' }],
        motion: {
          text: 'Approve **the** budget.',
          submittedBy: 'Mayor',
          vote: { yes: 21, no: 3, abstain: 1, result: 'adopted' },
        },
      },
    ],
    livestream: { url: 'https://stream.example/12', startsAt: '2026-05-20T17:00:00.000Z' },
    attendees: [refs.mayor],
  };
}

/**
 * Fills the city portal: districts, tags, the mayor, the Public Works department, a venue and two
 * events, a news article in two locales, a library, a tender with its document, a council
 * meeting, a project, the homepage and the site settings. Returns what the checks look up.
 */
export async function seedCityPortal(project: StartedProject): Promise<CitySeed> {
  const photo = await uploadFile(project.server, 'bridge.png', await smallPng(), 'image/png');
  const leaflet = await uploadFile(project.server, 'leaflet.txt', NOTES, 'text/plain');
  const district = (name: string, population: number) =>
    create(project, 'districts', {
      name,
      population,
      area: 3.25,
      postalCodes: ['10115', '10117'],
      center: { latitude: 52.5, longitude: 13.4 },
    });
  const tag = (name: string) => create(project, 'tags', { name });
  const mayor = await create(project, 'officials', {
    firstName: 'Rosa',
    lastName: 'Ruiz',
    party: 'independent',
    birthYear: 1971,
    elected: '2024-09-01',
    biography: paragraph('Engineer, then mayor.'),
    seats: [{ committee: 'Finance', role: 'chair', since: '2024-10-01' }],
    officeHours: [{ weekday: 'tuesday', from: '09:00:00', to: '12:30:00.000', location: 'Room 1' }],
  });
  const refs: CityRefs = {
    photo,
    leaflet,
    oldtown: (await district('Oldtown', 12000)).documentId,
    riverside: (await district('Riverside', 8000)).documentId,
    mayor: mayor.documentId,
    traffic: (await tag('traffic')).documentId,
    culture: (await tag('culture')).documentId,
  };
  const department = await create(project, 'departments', publicWorks(refs));
  await project.call('PUT', `/api/officials/${mayor.documentId}`, { data: { department: department.documentId } });
  const venue = await create(project, 'venues', {
    name: 'River stage',
    address: { street: 'Quay 2', geo: { latitude: 52.49, longitude: 13.41 } },
    district: refs.riverside,
  });
  await create(project, 'events', summerConcert(refs, venue.documentId, department.documentId));
  await create(project, 'events', {
    title: 'Spring market',
    startsAt: '2026-04-11T08:00:00.000Z',
    venue: venue.documentId,
  });
  const news = await create(project, 'news-articles', roadworksNews(refs, department.documentId));
  // relations are per locale in Strapi 5 (never copied to a new localization): the fr version links its own
  await project.call('PUT', `/api/news-articles/${news.documentId}?locale=fr`, {
    data: { title: 'Pont fermé pour travaux', slug: 'pont-ferme', tags: [refs.traffic], districts: [refs.oldtown] },
  });
  await create(project, 'facilities', {
    name: 'Central library',
    kind: 'library',
    wifiPassword: 'books-2026',
    amenities: [{ name: 'Wifi', icon: 'wifi' }],
    district: refs.oldtown,
  });
  const spec = await create(project, 'documents', {
    title: 'Specification',
    file: leaflet,
    kind: 'plan',
    pages: 40,
    checksum: 'abc',
  });
  await create(project, 'tenders', bridgeTender(spec.documentId));
  await create(project, 'council-meetings', councilMeeting(refs));
  await create(project, 'projects', {
    name: 'New bridge',
    status: 'in-progress',
    budgetTotal: '48000000',
    completion: 37.5,
    phases: [
      {
        name: 'Design',
        period: { start: '2025-01-01', end: '2025-12-31' },
        milestones: [{ title: 'Drafts', due: '2025-06-30', done: true }],
      },
    ],
    budget: [{ label: 'Steel', planned: 1200000.5, spent: 800000.25, fundingSource: 'state' }],
    department: department.documentId,
    districts: [refs.riverside],
  });
  await project.call('PUT', '/api/homepage', {
    data: {
      title: 'Welcome to Riverton',
      sections: [
        { __component: 'blocks.quick-links', links: [{ label: 'Permits', url: '/permits' }] },
        {
          __component: 'blocks.contact-box',
          title: 'Town hall',
          hours: { days: [{ day: 'monday', slots: [{ opens: '09:00:00', closes: '15:00:00' }] }] },
        },
      ],
      featuredNews: [news.documentId],
    },
  });
  await project.call('PUT', '/api/site-setting', {
    data: {
      portalName: 'Riverton',
      apiKey: 'do-not-show',
      menu: [{ label: 'Services', url: '/services', children: [{ label: 'Permits', url: '/permits' }] }],
    },
  });
  return { refs, department, news };
}
