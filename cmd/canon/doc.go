// Command canon keeps a derived index and graph of a Markdown knowledge base
// in step with git. Each command reads its flags, makes one call into the
// package that owns the use case (usecase for what the MCP server shares
// or what joins several packages) and prints the result
// (docs/architecture.md: where new code goes). It is the top of the ladder
// cmd → usecase → hooks → gitsync, workset → graph → index: no package
// imports it.
package main
