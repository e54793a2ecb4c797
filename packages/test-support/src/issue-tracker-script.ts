// One scripted MCP server's script that several suites register: an issue tracker, the kind of
// server a user's GitHub is.

/**
 * The script (tools and canned results) of `serverFixtures.scripted` for an issue tracker:
 * `list_issues` of a repository (answers two open issues) and `add_label`. What the agent's
 * end-to-end tests and the soak benchmark's tenants register.
 */
export const issueTrackerScript = {
  tools: [
    {
      name: 'list_issues',
      description: 'List the open issues of a repository',
      inputSchema: { type: 'object', properties: { repo: { type: 'string' } }, required: ['repo'] },
    },
    {
      name: 'add_label',
      description: 'Add a label to an issue',
      inputSchema: {
        type: 'object',
        properties: { issue: { type: 'integer' }, label: { type: 'string' } },
        required: ['issue', 'label'],
      },
    },
  ],
  results: {
    list_issues: {
      content: [
        {
          type: 'text',
          text: JSON.stringify([
            { number: 7, title: 'Crash on start' },
            { number: 9, title: 'Typo' },
          ]),
        },
      ],
    },
  },
} as const;
