// Package gitsync keeps an index in step with git: it turns git events
// (a commit, a checkout, a merge, a rewrite, a command run after any of
// them) into the smallest update of the index, and validates what a commit
// would record.
//
// It owns a Session (one repository, its configuration, its index), the
// O(1) HEAD check and the catch-up (a tree diff between the indexed commit
// and HEAD: a merkle walk over the trees, read from the packs by canon's
// own reader, gitfile, for small changes, git diff-tree for large ones, ADR-0005,
// ADR-0011 and ADR-0021), the stat walk of canon
// sync, full rebuilds and canon verify, and the staged and --new-from checks
// (CheckStaged, CheckNewFrom: the index with a change laid over it in a
// transaction that is rolled back, ADR-0007 and ADR-0018).
//
// What it must not do: write git's index or stage files, but for
// Repo.StageRename (an id rename's moves, as git mv records them, which
// the edit engine's journal asks for outside hooks); write canonical
// Markdown (the edit engine, index/edit, does, for the use cases that
// call it, ADR-0060); run git with a hook's GIT_INDEX_FILE or GIT_DIR
// except where it means to (ScrubbedEnv); import workset. A sync returns the node keys it changed, and tells them
// to the listeners set once where the session is opened (Session.OnSync:
// the CLI, the MCP server, the hooks and the watcher hand them to the
// worksets), so that no sync path can forget them.
//
// git's own files (packs, loose objects, trees, commits, the index file,
// the ref files) are read by gitsync/gitfile, and what it works out from
// them and keeps beside the index (commits' parents and times, the
// overlays' diffs) by gitsync/gitcache; both sit under it (ADR-0079).
// It decides what to read, asks git for what they leave to it, and holds
// the Repo and the Session they never see.
//
// On the ladder cmd → usecase → hooks → gitsync, workset → graph →
// index, it sits beside workset, above index.
package gitsync
