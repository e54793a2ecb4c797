// The searches of the reference plans in a user's everyday words: requests written blind, by a
// helper that read only what each server is for and what each task wants, never the tools
// (/work/blind/dev.jsonl; its method in README's task-suite section). Two per thing to find (a
// short phrase and a full sentence); each plan step uses the thing its tool is for (`thing`).
// Things no step needs ("add up numbers", done by the model) are left out.

/** One plan step's blind requests. */
export interface BlindRequest {
  /** The thing to find, numbered as in dev.jsonl. */
  readonly thing: number;
  readonly short: string;
  readonly sentence: string;
}

/** Task id → one blind request per plan step (one for a task no tool can do: its search). */
export const BLIND_REQUESTS: Readonly<Record<string, readonly BlindRequest[]>> = {
  'memory-remember-person': [
    {
      thing: 1,
      short: 'add person to knowledge graph',
      sentence:
        'Store a new entity named Linus of type person with the observation that he created Linux.',
    },
  ],
  'memory-relate': [
    {
      thing: 1,
      short: 'add relationship between two entities',
      sentence: 'Record in the knowledge graph that Ada mentored Grace as a link between the two.',
    },
  ],
  'memory-add-fact': [
    {
      thing: 1,
      short: 'add observation to existing entity',
      sentence: 'Append a new fact to what is already stored about Grace in the knowledge graph.',
    },
  ],
  'memory-forget': [
    {
      thing: 1,
      short: 'delete entity from knowledge graph',
      sentence: 'Remove Alan and everything stored about him from the memory graph.',
    },
  ],
  'memory-recall': [
    {
      thing: 1,
      short: 'look up entity in memory',
      sentence:
        'Find and show all stored facts and relations for the person Ada in the knowledge graph.',
    },
  ],
  'memory-who-admired': [
    {
      thing: 1,
      short: 'read knowledge graph relations',
      sentence:
        'Retrieve the relationships of Alan from the knowledge graph to see whom he admired.',
    },
  ],
  'files-write-list': [
    {
      thing: 1,
      short: 'write new text file',
      sentence:
        'Create a file called shopping.txt in the documents folder with the given contents.',
    },
  ],
  'files-second-line': [
    {
      thing: 1,
      short: 'read file contents',
      sentence: "Read the text of notes.txt from the user's documents folder.",
    },
  ],
  'files-append-line': [
    {
      thing: 1,
      short: 'read text file',
      sentence: 'Get the current contents of notes.txt so I can add to it.',
    },
    {
      thing: 2,
      short: 'edit file append line',
      sentence: "Modify notes.txt so that it ends with a new line containing 'delta'.",
    },
  ],
  'files-archive-notes': [
    {
      thing: 1,
      short: 'create directory',
      sentence: 'Make a new folder named archive in the documents folder.',
    },
    {
      thing: 2,
      short: 'move file into folder',
      sentence: 'Move notes.txt into the archive folder.',
    },
  ],
  'files-markdown-names': [
    {
      thing: 1,
      short: 'find files by extension recursively',
      sentence: 'Search all folders under documents for files whose names end in .md.',
    },
  ],
  'files-config-port': [
    {
      thing: 1,
      short: 'read file',
      sentence: 'Open config.json from my documents and show its contents.',
    },
  ],
  'files-change-port': [
    {
      thing: 1,
      short: 'edit file replace text',
      sentence: 'Replace 8080 with 9090 in config.json without rewriting the rest of the file.',
    },
  ],
  'files-sales-total': [
    {
      thing: 1,
      short: 'read csv file',
      sentence: 'Read sales.csv from the documents folder so I can sum a column.',
    },
  ],
  'files-top-region': [
    {
      thing: 1,
      short: 'read file contents',
      sentence: 'Load the contents of sales.csv from my files.',
    },
  ],
  'sqlite-count-orders': [
    {
      thing: 1,
      short: 'run SQL select query',
      sentence: 'Run a SELECT COUNT query against the orders table in the SQLite database.',
    },
  ],
  'sqlite-add-person': [
    {
      thing: 1,
      short: 'insert row into database table',
      sentence:
        'Execute an INSERT statement to add a new person with a role into the people table.',
    },
  ],
  'sqlite-promote': [
    {
      thing: 1,
      short: 'update database record',
      sentence: "Run an SQL UPDATE to change Grace's role in the people table.",
    },
  ],
  'sqlite-drop-cancelled': [
    {
      thing: 1,
      short: 'delete rows SQL',
      sentence: 'Run a DELETE statement removing orders whose status is cancelled.',
    },
  ],
  'sqlite-tables': [
    {
      thing: 1,
      short: 'list tables in database',
      sentence: 'Show me all the tables that exist in the SQLite shop database.',
    },
  ],
  'git-latest-commit': [
    {
      thing: 1,
      short: 'git log recent commits',
      sentence: 'Show the latest commit in the repository with its message.',
    },
  ],
  'git-author': [
    {
      thing: 1,
      short: 'git commit history authors',
      sentence: 'List the commits in the repository including who authored each one.',
    },
  ],
  'git-branch': [
    {
      thing: 1,
      short: 'create git branch',
      sentence: 'Create a new branch named feature/login in the git repository.',
    },
  ],
  'git-tag-release': [
    {
      thing: 1,
      short: 'create git tag',
      sentence: 'Put a tag called v1.0 on the current commit of the repository.',
    },
  ],
  'git-dirty-file': [
    {
      thing: 1,
      short: 'git status working tree',
      sentence: 'Show which files in the repository have been modified but not committed.',
    },
  ],
  'pdf-revenue': [
    {
      thing: 1,
      short: 'read pdf text',
      sentence: 'Extract the text from report.pdf so I can find the revenue figures.',
    },
  ],
  'pdf-page-count': [
    {
      thing: 1,
      short: 'pdf page count',
      sentence: 'Find out how many pages the document report.pdf has.',
    },
  ],
  'time-convert': [
    {
      thing: 1,
      short: 'convert time zone',
      sentence: 'Convert 09:00 on 10 March 2026 in America/New_York to the Asia/Tokyo time zone.',
    },
  ],
  'time-days-in-month': [
    {
      thing: 1,
      short: 'calendar days in month',
      sentence: 'Find out how many days a given month has, here February 2028.',
    },
  ],
  'everything-sum': [
    {
      thing: 1,
      short: 'add two numbers',
      sentence: 'Use the demo test tool that adds two numbers to compute 1234 plus 5678.',
    },
  ],
  'sqlite-top-customer': [
    {
      thing: 1,
      short: 'run SQL query join group by',
      sentence: 'Run a query joining customers and orders and summing the amounts per customer.',
    },
  ],
  'people-to-file': [
    {
      thing: 1,
      short: 'query database table',
      sentence: 'Select all names from the people table in the SQLite database.',
    },
    {
      thing: 2,
      short: 'write file',
      sentence: 'Save a list of names into people.txt in my documents, one per line.',
    },
  ],
  'paid-total-to-file': [
    {
      thing: 1,
      short: 'run SQL sum query',
      sentence: 'Run a query that adds up the amount of all orders with status paid.',
    },
    {
      thing: 2,
      short: 'create text file',
      sentence: 'Write the resulting number into a new file paid-total.txt in my documents.',
    },
  ],
  'todos-to-table': [
    {
      thing: 1,
      short: 'read file',
      sentence: 'Read todo.md from my documents folder to get the list items.',
    },
    {
      thing: 2,
      short: 'create database table',
      sentence: 'Create a new table called todos with a title column in the SQLite database.',
    },
    {
      thing: 3,
      short: 'insert rows into table',
      sentence: 'Insert one row per todo item into the todos table.',
    },
  ],
  'commit-changelog': [
    {
      thing: 1,
      short: 'create file',
      sentence:
        "Write a new file CHANGELOG.md containing 'First release' in the repository folder.",
    },
    {
      thing: 2,
      short: 'git add file',
      sentence: 'Stage CHANGELOG.md so it is included in the next commit.',
    },
    {
      thing: 3,
      short: 'git commit',
      sentence: "Make a commit in the repository with the message 'Add the changelog'.",
    },
  ],
  'pdf-outlook-to-memory': [
    {
      thing: 1,
      short: 'read pdf page',
      sentence: 'Extract the text of the outlook page from report.pdf.',
    },
    {
      thing: 2,
      short: 'create entity with observation',
      sentence: 'Save a new entity called Outlook in the knowledge graph with the text as a fact.',
    },
  ],
  'commits-to-memory': [
    {
      thing: 1,
      short: 'git log',
      sentence: 'Get the full list of commits in the repository so I can count them.',
    },
    {
      thing: 2,
      short: 'add entity to knowledge graph',
      sentence:
        "Remember in the knowledge graph a fact about the entity 'shop repository' giving its commit count.",
    },
  ],
  'people-to-memory': [
    {
      thing: 1,
      short: 'select rows from table',
      sentence: "Query the people table to get each person's name and role.",
    },
    {
      thing: 3,
      short: 'create entities in knowledge graph',
      sentence:
        'Add each person as an entity of type person with their role stored as an observation.',
    },
  ],
  'none-email-boss': [
    {
      thing: 1,
      short: 'send email',
      sentence: "Send an email to my boss saying I'll be late tomorrow.",
    },
  ],
  'none-weather': [
    {
      thing: 1,
      short: 'weather forecast',
      sentence: "Get tomorrow's weather forecast for Paris, France.",
    },
  ],
  'none-book-room': [
    {
      thing: 1,
      short: 'book meeting room',
      sentence: 'Reserve the big conference room on Friday at 3pm in the office calendar.',
    },
  ],
  'none-slack-post': [
    {
      thing: 1,
      short: 'post message to Slack channel',
      sentence: "Send the message 'deploy done' to the #ops channel in Slack.",
    },
  ],
  'none-translate-audio': [
    {
      thing: 1,
      short: 'transcribe voicemail audio',
      sentence: 'Turn the voicemail audio recording from this morning into text.',
    },
  ],
};
