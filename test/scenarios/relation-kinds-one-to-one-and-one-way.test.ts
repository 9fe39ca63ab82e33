import { expect } from 'vitest';
import { createAll, relation, schemaFile, withFullAccess } from '../support/content-types.js';
import { created, documentAt, nameRefs, names, notFoundDocument, ref } from '../support/relations.js';
import { scenario } from '../support/scenario.js';

/*
 * oneToOne bidirectional (person.desk ↔ desk.occupant) and the one-way kinds from person:
 * oneToMany ("many-way") person.badges → tag, manyToMany person.interests → tag,
 * manyToOne person.mentor → author.
 *
 * The scenario writes genuinely new content types into its project copy, as the Content-Type
 * Builder would (see content-types.ts): api::person.person at /api/people and
 * api::desk.desk at /api/desks. The blog's own types are left as they are; its author and tag
 * types serve as plain targets. The Public role has no permission on the new types, so every step
 * uses the full-access token.
 *
 * Expected answers follow Strapi 5 (shared/reference/strapi5-behaviour.md §5, §7, §15.2, §16, and
 * the relation rules of @strapi/database's entity manager: a bidirectional x-to-one or one-to-x
 * link is taken away from its previous holder; one-way links are not exclusive).
 */

const PERSON = 'api::person.person';
const DESK = 'api::desk.desk';
const PEOPLE_AND_DESKS = {
  ...schemaFile({
    singularName: 'person',
    pluralName: 'people',
    displayName: 'Person',
    draftAndPublish: false,
    attributes: {
      name: { type: 'string', required: true },
      desk: relation('oneToOne', DESK, { inversedBy: 'occupant' }),
      badges: relation('oneToMany', 'api::tag.tag'),
      interests: relation('manyToMany', 'api::tag.tag'),
      mentor: relation('manyToOne', 'api::author.author'),
    },
  }),
  ...schemaFile({
    singularName: 'desk',
    pluralName: 'desks',
    displayName: 'Desk',
    draftAndPublish: false,
    attributes: {
      label: { type: 'string' },
      occupant: relation('oneToOne', PERSON, { mappedBy: 'desk' }),
    },
  }),
};

const PERSON_DESK = 'fields[0]=name&populate[desk][fields][0]=label';
const DESK_OCCUPANT = 'fields[0]=label&populate[occupant][fields][0]=name';
const BADGES = 'fields[0]=name&populate[badges][fields][0]=name';
const INTERESTS = 'fields[0]=name&populate[interests][fields][0]=name';
const MENTOR = 'fields[0]=name&populate[mentor][fields][0]=name';
const person = (variable: string, name: string) => ref(variable, { name });
const desk = (variable: string, label: string) => ref(variable, { label });
const ADA = ref('ada', { name: 'Ada Lovelace' });
const GRACE = ref('grace', { name: 'Grace Hopper' });
const people = (variable: string) => documentAt('people', variable);
const desks = (variable: string) => documentAt('desks', variable);

scenario(
  'relation kinds: oneToOne bidirectional and one-way relations',
  withFullAccess([
    ...createAll('people', 'name', { ann: 'Ann', bob: 'Bob' }),
    ...createAll('desks', 'label', { d1: 'Desk 1', d2: 'Desk 2' }),
    ...createAll('tags', 'name', { t1: 't1', t2: 't2', t3: 't3', t4: 't4' }),
    ...createAll('authors', 'name', { ada: 'Ada Lovelace', grace: 'Grace Hopper' }),
    // oneToOne bidirectional
    people('ann').put(
      'Ann.desk = Desk 1',
      PERSON_DESK,
      { desk: '{{d1}}' },
      { name: 'Ann', desk: desk('d1', 'Desk 1') },
    ),
    desks('d1').get('Desk 1 sees Ann', DESK_OCCUPANT, { label: 'Desk 1', occupant: person('ann', 'Ann') }),
    {
      name: 'create Cy with desk = Desk 1',
      method: 'POST',
      path: `/api/people?${PERSON_DESK}`,
      body: { data: { name: 'Cy', desk: '{{d1}}' } },
      status: 201,
      save: { cy: 'data.documentId' },
      equal: created({ name: 'Cy', desk: desk('d1', 'Desk 1') }),
    },
    people('ann').get('Ann has lost Desk 1', PERSON_DESK, { name: 'Ann', desk: null }),
    desks('d1').get('Desk 1 sees Cy', DESK_OCCUPANT, { label: 'Desk 1', occupant: person('cy', 'Cy') }),
    people('bob').put(
      'Bob.desk connect Desk 1 takes it from Cy',
      PERSON_DESK,
      { desk: { connect: ['{{d1}}'] } },
      { name: 'Bob', desk: desk('d1', 'Desk 1') },
    ),
    people('cy').get('Cy has no desk', PERSON_DESK, { name: 'Cy', desk: null }),
    desks('d2').put(
      'inverse side: Desk 2.occupant = Cy',
      DESK_OCCUPANT,
      { occupant: '{{cy}}' },
      { label: 'Desk 2', occupant: person('cy', 'Cy') },
    ),
    people('cy').get('Cy sees Desk 2', PERSON_DESK, { name: 'Cy', desk: desk('d2', 'Desk 2') }),
    desks('d1').put(
      'inverse side: Desk 1.occupant = Cy moves Cy and frees Bob and Desk 2',
      DESK_OCCUPANT,
      { occupant: { connect: [{ documentId: '{{cy}}' }] } },
      { label: 'Desk 1', occupant: person('cy', 'Cy') },
    ),
    {
      name: 'people and their desks',
      path: `/api/people?sort=name&${PERSON_DESK}`,
      status: 200,
      check: ({ json }) =>
        expect(
          json.data.map((p: { name: string; desk: { label: string } | null }) => [p.name, p.desk?.label ?? null]),
        ).toEqual([
          ['Ann', null],
          ['Bob', null],
          ['Cy', 'Desk 1'],
        ]),
    },
    {
      name: 'desks and their occupants',
      path: `/api/desks?sort=label&${DESK_OCCUPANT}`,
      status: 200,
      check: ({ json }) =>
        expect(
          json.data.map((d: { label: string; occupant: { name: string } | null }) => [
            d.label,
            d.occupant?.name ?? null,
          ]),
        ).toEqual([
          ['Desk 1', 'Cy'],
          ['Desk 2', null],
        ]),
    },
    desks('d1').put(
      'inverse side: disconnect',
      DESK_OCCUPANT,
      { occupant: { disconnect: ['{{cy}}'] } },
      { label: 'Desk 1', occupant: null },
    ),
    people('cy').get('Cy has no desk again', PERSON_DESK, { name: 'Cy', desk: null }),
    people('ann').put(
      'Ann.desk = Desk 2',
      PERSON_DESK,
      { desk: '{{d2}}' },
      { name: 'Ann', desk: desk('d2', 'Desk 2') },
    ),
    desks('d2').put(
      'inverse side: null clears',
      DESK_OCCUPANT,
      { occupant: null },
      { label: 'Desk 2', occupant: null },
    ),
    people('ann').get('Ann has no desk', PERSON_DESK, { name: 'Ann', desk: null }),
    people('bob').put(
      'Bob.desk = Desk 2, then owner side null',
      PERSON_DESK,
      { desk: '{{d2}}' },
      { name: 'Bob', desk: desk('d2', 'Desk 2') },
    ),
    people('bob').put('owner side null', PERSON_DESK, { desk: null }, { name: 'Bob', desk: null }),
    desks('d2').get('Desk 2 is free', DESK_OCCUPANT, { label: 'Desk 2', occupant: null }),
    people('cy').put(
      'Cy.desk = Desk 2 before deleting Cy',
      PERSON_DESK,
      { desk: '{{d2}}' },
      { name: 'Cy', desk: desk('d2', 'Desk 2') },
    ),
    { name: 'delete Cy', method: 'DELETE', path: '/api/people/{{cy}}', status: 204 },
    desks('d2').get('Desk 2 is free after the delete', DESK_OCCUPANT, { label: 'Desk 2', occupant: null }),
    people('ann').put(
      'Ann.desk = Desk 1 before deleting Desk 1',
      PERSON_DESK,
      { desk: '{{d1}}' },
      { name: 'Ann', desk: desk('d1', 'Desk 1') },
    ),
    { name: 'delete Desk 1', method: 'DELETE', path: '/api/desks/{{d1}}', status: 204 },
    people('ann').get('Ann has no desk after the delete', PERSON_DESK, { name: 'Ann', desk: null }),
    {
      name: 'unknown desk',
      method: 'PUT',
      path: '/api/people/{{ann}}',
      body: { data: { desk: 'nosuchdesk00000000000000' } },
      status: 400,
      equal: notFoundDocument('nosuchdesk00000000000000'),
    },
    {
      name: 'a tag is not a desk',
      method: 'PUT',
      path: '/api/people/{{ann}}',
      body: { data: { desk: '{{t1}}' } },
      status: 400,
      equal: notFoundDocument('{{t1}}'),
    },
    {
      name: 'a tag is not an occupant',
      method: 'PUT',
      path: '/api/desks/{{d2}}',
      body: { data: { occupant: '{{t1}}' } },
      status: 400,
      equal: notFoundDocument('{{t1}}'),
    },
    // oneToMany one-way ("many-way")
    people('ann').put(
      'badges: set [t1, t2]',
      BADGES,
      { badges: ['{{t1}}', '{{t2}}'] },
      { name: 'Ann', badges: nameRefs('t1', 't2') },
    ),
    people('ann').put(
      'badges: connect t3 at the start',
      BADGES,
      { badges: { connect: [{ documentId: '{{t3}}', position: { start: true } }] } },
      { name: 'Ann', badges: nameRefs('t3', 't1', 't2') },
    ),
    people('ann').put(
      'badges: move t1 after t2',
      BADGES,
      { badges: { connect: [{ documentId: '{{t1}}', position: { after: '{{t2}}' } }] } },
      { name: 'Ann', badges: nameRefs('t3', 't2', 't1') },
    ),
    people('ann').put(
      'badges: connect t4 before t2',
      BADGES,
      { badges: { connect: [{ documentId: '{{t4}}', position: { before: '{{t2}}' } }] } },
      { name: 'Ann', badges: nameRefs('t3', 't4', 't2', 't1') },
    ),
    people('ann').put(
      'badges: disconnect t3',
      BADGES,
      { badges: { disconnect: ['{{t3}}'] } },
      { name: 'Ann', badges: nameRefs('t4', 't2', 't1') },
    ),
    people('ann').get('badges: order kept on GET', BADGES, { name: 'Ann', badges: nameRefs('t4', 't2', 't1') }),
    people('ann').put(
      'badges: a longhand set replaces',
      BADGES,
      { badges: { set: [{ documentId: '{{t2}}' }, { documentId: '{{t3}}' }] } },
      { name: 'Ann', badges: nameRefs('t2', 't3') },
    ),
    people('ann').put(
      'badges: another attribute write leaves them',
      BADGES,
      { name: 'Ann B.' },
      { name: 'Ann B.', badges: nameRefs('t2', 't3') },
    ),
    people('ann').put('badges: [] clears', BADGES, { badges: [] }, { name: 'Ann B.', badges: [] }),
    {
      name: 'badges: the tag side has no attribute for them',
      path: '/api/tags/{{t1}}?populate[badges]=true',
      status: 400,
      match: { data: null, error: { status: 400, name: 'ValidationError' } },
    },
    // manyToMany one-way
    people('ann').put(
      'interests: Ann [t1, t2, t3]',
      INTERESTS,
      { interests: ['{{t1}}', '{{t2}}', '{{t3}}'] },
      { name: 'Ann B.', interests: nameRefs('t1', 't2', 't3') },
    ),
    people('bob').put(
      'interests: Bob [t3, t1] (shared targets)',
      INTERESTS,
      { interests: { connect: ['{{t3}}', '{{t1}}'] } },
      { name: 'Bob', interests: nameRefs('t3', 't1') },
    ),
    people('ann').put(
      'interests: Ann moves t3 before t1',
      INTERESTS,
      { interests: { connect: [{ documentId: '{{t3}}', position: { before: '{{t1}}' } }] } },
      { name: 'Ann B.', interests: nameRefs('t3', 't1', 't2') },
    ),
    people('ann').put(
      'interests: Ann moves t1 to the end',
      INTERESTS,
      { interests: { connect: [{ documentId: '{{t1}}', position: { end: true } }] } },
      { name: 'Ann B.', interests: nameRefs('t3', 't2', 't1') },
    ),
    {
      name: 'interests: each person keeps its own list and order',
      path: `/api/people?sort=name&${INTERESTS}`,
      status: 200,
      check: ({ json }) =>
        expect(json.data.map((p: { interests: { name: string }[] }) => names(p.interests))).toEqual([
          ['t3', 't2', 't1'],
          ['t3', 't1'],
        ]),
    },
    people('bob').put(
      'interests: disconnect on Bob leaves Ann',
      INTERESTS,
      { interests: { disconnect: ['{{t3}}'] } },
      { name: 'Bob', interests: nameRefs('t1') },
    ),
    people('ann').get('interests: Ann unchanged', INTERESTS, { name: 'Ann B.', interests: nameRefs('t3', 't2', 't1') }),
    { name: 'interests: delete tag t1', method: 'DELETE', path: '/api/tags/{{t1}}', status: 204 },
    {
      name: 'interests: t1 is gone from both lists, the rest keeps its order',
      path: `/api/people?sort=name&${INTERESTS}`,
      status: 200,
      check: ({ json }) =>
        expect(json.data.map((p: { interests: { name: string }[] }) => names(p.interests))).toEqual([['t3', 't2'], []]),
    },
    // manyToOne one-way
    people('ann').put('mentor: Ann → Ada', MENTOR, { mentor: '{{ada}}' }, { name: 'Ann B.', mentor: ADA }),
    people('bob').put(
      'mentor: Bob → Ada too (many to one)',
      MENTOR,
      { mentor: { connect: [{ documentId: '{{ada}}' }] } },
      { name: 'Bob', mentor: ADA },
    ),
    people('ann').get('mentor: Ann still has Ada', MENTOR, { name: 'Ann B.', mentor: ADA }),
    people('ann').put(
      'mentor: connect replaces',
      MENTOR,
      { mentor: { connect: ['{{grace}}'] } },
      { name: 'Ann B.', mentor: GRACE },
    ),
    people('bob').get('mentor: Bob keeps Ada', MENTOR, { name: 'Bob', mentor: ADA }),
    people('ann').put(
      'mentor: disconnect of another author is a no-op',
      MENTOR,
      { mentor: { disconnect: ['{{ada}}'] } },
      { name: 'Ann B.', mentor: GRACE },
    ),
    people('ann').put('mentor: null clears', MENTOR, { mentor: null }, { name: 'Ann B.', mentor: null }),
    { name: 'mentor: delete Ada', method: 'DELETE', path: '/api/authors/{{ada}}', status: 204 },
    people('bob').get('mentor: Bob has none after the delete', MENTOR, { name: 'Bob', mentor: null }),
  ]),
  { files: PEOPLE_AND_DESKS },
);
