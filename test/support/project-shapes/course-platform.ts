import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseKind } from '../databases.js';
import { create, expectCleanStart, paragraph, startProject, type StartedProject } from './start-project.js';

/*
 * The course site (test/fixtures/projects/course-platform): TypeScript config files in the typed
 * `Core.Config` form, lessons and instructors kept in order, drafts and i18n off.
 */

type Doc = Record<string, any>;

/** The course site's scenario on one database. */
export function coursePlatformScenario(database: DatabaseKind): void {
  describe(`[${database}] course site: TypeScript config, ordered lessons, no drafts, no i18n`, () => {
    let project: StartedProject;
    let course: Doc;
    let lessons: Doc[];
    let instructors: Doc[];

    beforeAll(async () => {
      project = await startProject('course-platform', database);
      instructors = [
        await create(project, 'instructors', { name: 'Grace', email: 'grace@example.com', rating: 4.8 }),
        await create(project, 'instructors', { name: 'Alan', email: 'alan@example.com', rating: 4.2 }),
      ];
      course = await create(project, 'courses', {
        title: 'Compilers',
        slug: 'compilers',
        level: 'advanced',
        durationHours: 12.5,
        startsOn: '2026-03-01',
        description: paragraph('Parse, check, emit.'),
        price: { amount: 49.99, currency: 'USD', discountPercent: 10 },
        outcomes: [{ text: 'Write a parser' }, { text: 'Emit code' }],
        instructors: [instructors[1]!.documentId, instructors[0]!.documentId],
      });
      lessons = [];
      for (const [i, title] of ['Lexing', 'Parsing', 'Emitting'].entries())
        lessons.push(
          await create(project, 'lessons', {
            title,
            durationMinutes: 20 + i,
            course: course.documentId,
            resources: [{ title: `${title} notes`, url: `https://notes.example/${i}` }],
          }),
        );
      const basics = await create(project, 'courses', { title: 'Basics', slug: 'basics', prerequisites: [] });
      await project.call('PUT', `/api/courses/${course.documentId}`, { data: { prerequisites: [basics.documentId] } });
      const enroll = (studentName: string, progress: number, status: string) =>
        create(project, 'enrollments', {
          studentName,
          studentEmail: `${studentName.toLowerCase()}@example.com`,
          status,
          progress,
          enrolledAt: '2026-03-02T09:30:00.000Z',
          certificateCode: `CERT-${studentName}`,
          course: course.documentId,
        });
      await enroll('Ada', 100, 'completed');
      await enroll('Linus', 35.5, 'active');
      await enroll('Ken', 0, 'pending');
    });
    afterAll(() => project.server.close());

    it("starts unchanged from config/*.ts, with the SQLite file of Strapi's TypeScript template inside the project", () => {
      expectCleanStart(project, 0);
      const { config, dir } = project.server.app.project;
      if (database === 'sqlite') expect(config.database.filename).toBe(`${dir}/.tmp/data.db`);
      expect(config.api).toMatchObject({ defaultLimit: 25, maxLimit: 100 });
    });

    it('keeps the lessons and instructors in the order they were connected, and reorders them', async () => {
      const read = async () =>
        (
          await project.call(
            'GET',
            `/api/courses/${course.documentId}?populate[lessons][fields][0]=title&populate[instructors][fields][0]=name`,
          )
        ).json.data as Doc;
      let doc = await read();
      expect(doc.lessons.map((l: Doc) => l.title)).toEqual(['Lexing', 'Parsing', 'Emitting']);
      expect(doc.instructors.map((i: Doc) => i.name)).toEqual(['Alan', 'Grace']);
      await project.call('PUT', `/api/courses/${course.documentId}`, {
        data: {
          lessons: { connect: [{ documentId: lessons[2]!.documentId, position: { before: lessons[0]!.documentId } }] },
          instructors: { connect: [{ documentId: instructors[0]!.documentId, position: { start: true } }] },
        },
      });
      doc = await read();
      expect(doc.lessons.map((l: Doc) => l.title)).toEqual(['Emitting', 'Lexing', 'Parsing']);
      expect(doc.instructors.map((i: Doc) => i.name)).toEqual(['Grace', 'Alan']);
    });

    it('answers components, relations and typed values; no draft, no locale', async () => {
      const doc = (
        await project.call(
          'GET',
          `/api/courses/${course.documentId}?populate[price]=true&populate[outcomes]=true&populate[prerequisites][fields][0]=slug`,
        )
      ).json.data as Doc;
      expect(doc).toMatchObject({ level: 'advanced', durationHours: 12.5, startsOn: '2026-03-01', published: true });
      expect(doc.price).toMatchObject({ amount: 49.99, currency: 'USD', discountPercent: 10 });
      expect(doc.outcomes.map((o: Doc) => o.text)).toEqual(['Write a parser', 'Emit code']);
      expect(doc.prerequisites.map((p: Doc) => p.slug)).toEqual(['basics']);
      expect(doc.publishedAt).toEqual(expect.any(String));
      expect(doc).not.toHaveProperty('locale');
      const lesson = (await project.call('GET', `/api/lessons/${lessons[1]!.documentId}?populate=*`)).json.data as Doc;
      // populate=* is one level deep: the component's own media stay out
      expect(lesson.resources).toEqual([
        { id: expect.any(Number), title: 'Parsing notes', url: 'https://notes.example/1' },
      ]);
      expect(lesson.course.title).toBe('Compilers');
    });

    it('filters through a relation, sorts on a float and never answers a private field', async () => {
      const list = (
        await project.call(
          'GET',
          '/api/enrollments?filters[course][slug][$eq]=compilers&filters[progress][$gt]=0&sort=progress:desc',
        )
      ).json as Doc;
      expect(list.data.map((e: Doc) => [e.studentName, e.progress, e.status])).toEqual([
        ['Ada', 100, 'completed'],
        ['Linus', 35.5, 'active'],
      ]);
      expect(list.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 2 });
      expect(list.data[0].enrolledAt).toBe('2026-03-02T09:30:00.000Z');
      expect(list.data[0]).not.toHaveProperty('certificateCode');
      const counted = await project.call('GET', `/api/courses/${course.documentId}?populate[enrollments][count]=true`);
      expect(counted.json.data.enrollments).toEqual({ count: 3 });
      await project.call('DELETE', `/api/enrollments/${list.data[1].documentId}`);
      const after = await project.call('GET', `/api/courses/${course.documentId}?populate[enrollments][count]=true`);
      expect(after.json.data.enrollments).toEqual({ count: 2 });
      const duplicate = await project.call(
        'POST',
        '/api/courses',
        { data: { title: 'Compilers', slug: 'compilers-2' } },
        400,
      );
      expect(duplicate.json.error).toMatchObject({ name: 'ValidationError', message: 'This attribute must be unique' });
    });

    it('writes and reads the category single type with its featured courses', async () => {
      await project.call('PUT', '/api/category', {
        data: { name: 'All courses', intro: '**Learn**', featuredCourses: [course.documentId] },
      });
      const category = (await project.call('GET', '/api/category?populate[featuredCourses][fields][0]=title')).json
        .data as Doc;
      expect(category).toMatchObject({ name: 'All courses', intro: '**Learn**' });
      expect(category.featuredCourses.map((c: Doc) => c.title)).toEqual(['Compilers']);
    });
  });
}
