// Tasks over the PDF reader, the clock and the test server, and a question over the whole
// orders table: one server each, in the user's own words.
import { join } from 'node:path';
import { withArgs, type EvalTask } from './eval-task.js';
import { ORDERS } from './eval-world.js';

const spent = new Map<string, number>();
for (const o of ORDERS) spent.set(o.customer, (spent.get(o.customer) ?? 0) + o.amount);
const [topCustomer, topSpent] = [...spent].sort((a, b) => b[1] - a[1])[0]!;

export const OTHER_SERVER_TASKS: readonly EvalTask[] = [
  {
    id: 'pdf-revenue',
    prompt: 'By how much did revenue rise, according to report.pdf in my files?',
    kind: 'question',
    servers: ['pdf'],
    checks: 'ANSWER is 12 percent',
    plan: (world) => ({
      queries: ['read text from a PDF'],
      steps: [
        {
          tool: 'pdf.read_pdf',
          args: { sources: [{ path: join(world.files, 'report.pdf') }], include_full_text: true },
        },
      ],
      answer: 'Revenue rose 12 percent.',
      evidence: ['Revenue rose 12 percent'],
    }),
    question: {
      answer: { oneOf: ['12 percent', '12%', '12', 'by 12 percent', 'by 12%', '12 per cent'] },
      sources: ['pdf.read_pdf'],
      seen: ['Revenue rose 12 percent', '12 percent'],
    },
    wrongArgs: withArgs(0, (world) => ({
      sources: [{ path: join(world.files, 'report.pdf'), pages: [2] }],
    })),
  },
  {
    id: 'pdf-page-count',
    prompt: 'How many pages long is report.pdf?',
    kind: 'question',
    servers: ['pdf'],
    checks: 'ANSWER is 2',
    plan: (world) => ({
      queries: ['read a PDF document'],
      steps: [
        {
          tool: 'pdf.read_pdf',
          args: {
            sources: [{ path: join(world.files, 'report.pdf') }],
            include_full_text: false,
            include_page_count: true,
          },
        },
      ],
      answer: 'report.pdf has 2 pages.',
    }),
    question: {
      answer: { oneOf: ['2', '2 pages'] },
      sources: ['pdf.read_pdf'],
      seen: ['"num_pages": 2', '"num_pages":2', 'num_pages: 2', 'Outlook'],
    },
    wrongArgs: withArgs(0, (world) => ({
      sources: [{ path: join(world.files, 'report.pdf'), pages: [1] }],
      include_full_text: true,
      include_page_count: false,
    })),
  },
  {
    id: 'time-convert',
    prompt: 'If it is 09:00 in New York on 10 March 2026, what time is it in Tokyo?',
    kind: 'question',
    servers: ['time'],
    checks: 'ANSWER is 22:00 (or 10 PM)',
    plan: () => ({
      queries: ['convert a time between time zones'],
      steps: [
        {
          tool: 'time.convert_time',
          args: {
            sourceTimezone: 'America/New_York',
            targetTimezone: 'Asia/Tokyo',
            time: '2026-03-10 09:00:00',
          },
        },
      ],
      answer: 'It is 22:00 in Tokyo.',
    }),
    question: {
      answer: { oneOf: ['22:00', '10 pm', '10:00 pm', '10pm', '10 p.m', '22:00 in Tokyo'] },
      sources: ['time.convert_time'],
      seen: ['22:00'],
    },
    wrongArgs: withArgs(0, () => ({ sourceTimezone: 'America/Chicago' })),
  },
  {
    id: 'time-days-in-month',
    prompt: 'How many days does February 2028 have?',
    kind: 'question',
    servers: ['time'],
    checks: 'ANSWER is 29',
    plan: () => ({
      queries: ['days in a month'],
      steps: [{ tool: 'time.days_in_month', args: { date: '2028-02-01' } }],
      answer: 'February 2028 has 29 days.',
      evidence: ['29'],
    }),
    question: {
      answer: { oneOf: ['29', '29 days'] },
      sources: ['time.days_in_month'],
      seen: ['29'],
    },
    wrongArgs: withArgs(0, () => ({ date: '2027-02-01' })),
  },
  {
    id: 'everything-sum',
    prompt: 'Use the test server to add 1234 and 5678.',
    kind: 'question',
    servers: ['everything'],
    checks: 'ANSWER is 6912',
    plan: () => ({
      queries: ['add two numbers'],
      steps: [{ tool: 'everything.get-sum', args: { a: 1234, b: 5678 } }],
      answer: 'The sum is 6912.',
      evidence: ['6912'],
    }),
    question: {
      answer: { oneOf: ['6912'] },
      sources: ['everything.get-sum'],
      seen: ['6912'],
    },
    wrongArgs: withArgs(0, () => ({ b: 5687 })),
  },
  {
    id: 'sqlite-top-customer',
    prompt: 'Which customer has spent the most across all orders?',
    kind: 'large-result',
    servers: ['sqlite'],
    checks: `ANSWER is ${topCustomer}`,
    plan: () => ({
      queries: ['run a SQL query'],
      steps: [
        {
          tool: 'sqlite.execute_sql',
          args: {
            sql: 'SELECT customer, SUM(amount) AS spent FROM orders GROUP BY customer ORDER BY spent DESC',
          },
        },
      ],
      answer: `${topCustomer} has spent the most.`,
    }),
    question: {
      answer: { oneOf: [topCustomer] },
      sources: ['sqlite.execute_sql'],
      // The total it rests on (summed in SQL), or the name a script over the rows returned.
      seen: [String(topSpent), topCustomer],
    },
    wrongArgs: withArgs(0, () => ({
      sql: "SELECT customer, SUM(amount) AS spent FROM orders WHERE status = 'paid' GROUP BY customer ORDER BY spent DESC LIMIT 1",
    })),
  },
];
