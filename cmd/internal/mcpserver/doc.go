// Package mcpserver is canon's second front end: canon mcp, the MCP server
// agents use natively. Like the CLI (cmd/canon) it only turns requests into
// one call each on the use cases (usecase for those the CLI shares with it,
// else the owning package: gitsync.Session, workset, graph, index) and
// renders the answer: structured output and a compact text. What it adds
// is its own: one long-lived session that every call catches up first, and
// the freshness every answer carries.
//
// It sits at the top of the ladder beside cmd/canon (cmd → usecase → hooks
// → gitsync, workset → graph → index) and must not hold a use case of its
// own: a tool that needs more than one call gets a use case below, in
// usecase when the CLI's command needs it too.
package mcpserver
