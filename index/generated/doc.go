// Package generated tells documents written by tools from those people
// write (ADR-0036): dashboards, index stubs, generated briefs. They list
// many items' titles, so a search finds them and every item they list
// links to them; context packs leave them out unless asked. Reason says
// why a document read at a path counts as generated (its frontmatter
// says so, Kano's build stamp opens it, its path says so, or it is mostly
// a list of links), OnRename what a moved document's reason becomes; the
// index detects it when it reads a document and stores it in
// docs.generated.
//
// It sits under index, which imports it, over a parsed document
// (index/markdown): pure, no SQL, no I/O, nothing of git.
package generated
