// Package markdown parses one Markdown document: frontmatter, headings,
// sections and links. It is pure: no I/O, no database.
//
// The body scanner (ScanBody) follows CommonMark and GitHub Flavored
// Markdown as github.com renders them, closely enough to find every heading
// and every link a reader sees, and nothing inside code. It is a single pass
// over lines followed by an inline pass over each paragraph; it never builds
// a syntax tree. Heading anchors (Slug, Slugger, HeadingText) reproduce the
// ids GitHub gives headings, duplicate suffixes included, so that links to
// "file.md#some-heading" can be checked offline.
//
// It owns the parse and nothing it does leaves the document: references
// are reported as written, and resolving them is index/resolve's. On the
// ladder cmd → usecase → hooks → gitsync, workset → graph → index, it is
// at the bottom with index, which calls it; it imports nothing of canon's.
package markdown
