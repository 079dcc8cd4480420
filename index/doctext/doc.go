// Package doctext is the text of canon show: one document's identity, its
// frontmatter as YAML-like lines, its edges out and in, its sections (with
// their text when asked) and its problems (Write, View). The JSON of the
// same view is index.DocView's own, its documented shape.
//
// It sits above index, whose DocView it renders (graph, gitsync's callers
// and the front ends call it); none of index's packages imports it. It
// runs no SQL, reads no file and knows nothing of git.
package doctext
