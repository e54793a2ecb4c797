// The `mcp-agent` command arrives with the apps issue; until then this app only hosts the demo.
export {};
