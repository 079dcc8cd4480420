// Command canon keeps a derived index and graph of a Markdown knowledge base
// in step with git. Each command reads its flags, makes one call into the
// package that owns the use case and prints the result (docs/architecture.md:
// where new code goes). It is the top of the ladder cmd → hooks → gitsync,
// workset → graph → index: no package imports it.
package main
