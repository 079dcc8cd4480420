package gitsync

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
)

// Status is canon status: where the index is, the commit it reflects, what
// it holds, whether it is behind, the last count of problems and the
// watcher. Its JSON is a documented contract (docs/commands.md).
type Status struct {
	Index         string `json:"index"` // relative to the root when inside it
	Schema        int    `json:"schema"`
	Head          string `json:"head"`
	Branch        string `json:"branch"`
	IndexedHead   string `json:"indexed_head"`
	Behind        bool   `json:"behind"`
	ConfigChanged bool   `json:"config_changed"`
	SyncedAt      string `json:"synced_at"`
	BuiltAt       string `json:"built_at"`
	// MissingRoots are the configured roots that are not folders in the
	// working tree (a typo, or a folder not made yet): nothing is indexed
	// from them.
	MissingRoots []string `json:"missing_roots"`
	// WorktreeChanged counts the files edited, added or deleted in the
	// working tree that the index does not hold as they are (by hand, by
	// another program, or put back by git stash or reset --hard): a stat
	// of every document (Store.Drift); any other command takes them in
	// first (ADR-0081).
	WorktreeChanged int `json:"worktree_changed"`
	*index.Status
	// Problems is what the last check of every document (check --all,
	// canon problems, init) counted; null before there was one.
	Problems *Checked      `json:"problems"`
	Watcher  *WatcherState `json:"watcher"`
}

// Status reports the index as it is. It is the one use case that does not
// catch up first: it says whether the index is behind.
func (s *Session) Status(ctx context.Context) (*Status, error) {
	head, ref, err := s.Repo.Head()
	if err != nil {
		return nil, err
	}
	meta, err := s.Store.AllMeta()
	if err != nil {
		return nil, err
	}
	counts, err := s.Store.Counts(ctx)
	if err != nil {
		return nil, err
	}
	_, behind, err := s.Behind()
	if err != nil {
		return nil, err
	}
	missing := []string{}
	for _, r := range s.Cfg.Roots {
		if info, err := os.Stat(filepath.Join(s.Repo.Root, filepath.FromSlash(r))); err != nil || !info.IsDir() {
			missing = append(missing, r)
		}
	}
	// A listener that answered the command (Vouched, asked by the command
	// line before Status) has every edit in: nothing to count. The index
	// may still be behind HEAD (Behind says so). A server's own status
	// call never asks: it would wait for its own turn.
	changed := 0
	if s.listener != ListenerVouched {
		if changed, err = s.Store.Drift(s.Scope); err != nil {
			return nil, err
		}
	}
	rel, _ := filepath.Rel(s.Repo.Root, s.Store.Path())
	st := &Status{
		Index: filepath.ToSlash(rel), Schema: index.SchemaVersion, Head: head,
		Branch: strings.TrimPrefix(ref, "refs/heads/"), IndexedHead: meta[index.MetaHead],
		Behind: behind, ConfigChanged: meta[index.MetaConfig] != "" && meta[index.MetaConfig] != s.Cfg.IndexHash(),
		SyncedAt: meta[index.MetaSyncedAt], BuiltAt: meta[index.MetaBuiltAt], Status: counts, MissingRoots: missing, WorktreeChanged: changed,
	}
	if st.Problems, err = s.LastChecked(); err != nil {
		return nil, err
	}
	if st.Watcher, err = ObserveWatcher(s.Repo.CanonDir()); err != nil {
		return nil, err
	}
	return st, nil
}

// WriteText writes the status for a person, a line per subject.
func (s *Status) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "index     %s (schema %d)\n", s.Index, s.Schema)
	branch := s.Branch
	if branch == "" {
		branch = "detached"
	}
	head := human.Commit(s.Head)
	switch {
	case s.BuiltAt == "":
		fmt.Fprintf(w, "head      %s (%s): not indexed yet; run canon index\n", head, branch)
	case s.Behind && s.ConfigChanged:
		fmt.Fprintf(w, "head      %s (%s): the configuration changed since the last build; any command rebuilds\n", head, branch)
	case s.Behind:
		fmt.Fprintf(w, "head      %s (%s): behind, the index reflects %s; any command catches up\n", head, branch, human.Commit(s.IndexedHead))
	default:
		fmt.Fprintf(w, "head      %s (%s): up to date\n", head, branch)
	}
	if s.WorktreeChanged > 0 {
		fmt.Fprintf(w, "worktree  %s edited since the last sync; any command takes them in first\n", human.Plural(s.WorktreeChanged, "file"))
	}
	if s.SyncedAt != "" {
		fmt.Fprintf(w, "synced    %s\n", human.Ago(s.SyncedAt))
	}
	s.Watcher.WriteText(w)
	for _, r := range s.MissingRoots {
		fmt.Fprintf(w, "root      %s is not a folder here, so nothing is indexed from it (roots: in .canon/config.yaml)\n", r)
	}
	fmt.Fprintf(w, "documents %s", human.Thousands(s.Documents))
	if len(s.Kinds) > 0 {
		fmt.Fprintf(w, " (%s)", human.CountList(s.Kinds))
	}
	fmt.Fprintln(w)
	switch {
	case s.Skipped > 0 && s.Linked == s.Skipped:
		fmt.Fprintf(w, "skipped   %s, each a symbolic link to a file canon indexes itself\n", human.Plural(s.Skipped, "file"))
	case s.Linked > 0:
		fmt.Fprintf(w, "skipped   %s (see canon problems), %d of them symbolic links to files canon indexes itself\n", human.Plural(s.Skipped, "file"), s.Linked)
	case s.Skipped > 0:
		fmt.Fprintf(w, "skipped   %s (see canon problems)\n", human.Plural(s.Skipped, "file"))
	}
	l := s.Links
	fmt.Fprintf(w, "links     %s resolved, %d dangling, %d ambiguous, %d external, %d to other files\n",
		human.Thousands(l.Resolved), l.Dangling, l.Ambiguous, l.External, l.Files)
	fmt.Fprintf(w, "chunks    %s\n", human.Thousands(s.Chunks))
	switch c := s.Problems; {
	case c == nil:
		fmt.Fprintln(w, "problems  not counted yet; canon problems lists them")
	case c.Current:
		fmt.Fprintf(w, "problems  %s, %s in %s (canon problems lists them)\n", human.Plural(c.Errors, "error"), human.Plural(c.Warnings, "warning"), human.Plural(c.Files, "file"))
	default:
		fmt.Fprintf(w, "problems  %s, %s at the last count, before the index moved; canon problems counts again\n", human.Plural(c.Errors, "error"), human.Plural(c.Warnings, "warning"))
	}
	return nil
}
