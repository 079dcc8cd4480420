// Package resolve is how a reference finds its document (ADR-0004): pure
// functions over the text of a link and the names of documents, with no
// SQL and no I/O.
//
// Every document is named by a few alias terms (AliasTerms): its uid, its
// id, its file stem, the number its file name starts with or the record
// name before its title (0097, adr-004, task-97), its folder's name for a
// README or index page, the names an old id prefix gives it (was:,
// ADR-0051) and its title (ADR-0054). A link carries a plan (Link.Plan):
// the terms to try, in order, worked out from its form (a frontmatter
// reference, a Markdown link, a wiki-link or embed, an autolink), its raw
// text and the path of the file it is written in; the first term that
// names any document decides, and two or more documents there make it
// ambiguous (Link.Resolve). A link to a folder names its README, else its
// index page; a link written as the repository's own web address (a
// Planner's URLs, ADR-0052) names the document at that path, and stays a
// web link when none is there. Namespaces (NamespacesOf) are id spaces: an
// id that names documents in several prefers those of the link's own.
//
// Every link also carries a match key (Link.Match), the last name it
// points at, and every document its match keys (MatchKeys): when
// documents come or go, only links whose match key is one of theirs can
// resolve differently, so an update re-resolves just those.
//
// It owns the alias terms and match keys of a document, the plan and the
// resolution of a link, the link statuses and forms stored in the index,
// and the small rules of names they rest on (TitleKey, PrefixNumber,
// OldPrefixIDs, FileNumber, RecordName, RepoAddress, LinkTarget,
// FolderLink, AnchorUnchecked).
//
// What it must not do: open a database, read a file or the repository, or
// know of git. The alias table it resolves against is an Aliases handed in:
// index's writer answers from the database, a full build from memory
// (MemAliases), check's candidates from a Querier; all run the same
// resolution, so that an update and a rebuild agree (canon verify).
//
// On the ladder cmd → usecase → hooks → gitsync, workset → graph → index
// it sits at the bottom with index's other sub-packages: it imports
// index/markdown and index/config only, and never index itself, which
// imports it.
package resolve
