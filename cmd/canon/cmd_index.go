package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/gitsync/watch"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/safepath"
)

func initCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "write a commented default .canon/config.yaml (if there is none) and build the index",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			repo, err := gitsync.Discover(e.dir)
			if err != nil {
				return err
			}
			s, err := e.openNoSync("canon init")
			if err != nil {
				return err
			}
			defer s.Close()
			detected := s.Cfg.Namespaces.Detected()
			written, err := writeDefaultConfig(repo.Root, detected)
			if err != nil {
				return err
			}
			res, err := s.Rebuild(c.Context, "")
			if err != nil {
				return err
			}
			st, err := s.Store.Counts(c.Context)
			if err != nil {
				return err
			}
			// The count is check --all's: one set of rules everywhere.
			checked, err := s.CheckAll(c.Context)
			if err != nil {
				return err
			}
			count := len(checked.Findings)
			if c.Bool("json") {
				var found []config.Namespace
				for _, n := range s.Cfg.Namespaces {
					if n.From != "" {
						found = append(found, n)
					}
				}
				return writeJSON(e.stdout, map[string]any{
					"config": config.File, "config_written": written, "index": s.Store.Path(),
					"documents": st.Documents, "skipped_files": st.Skipped, "problems": count,
					"elapsed_ms": res.Stats.Elapsed.Milliseconds(), "detected_namespaces": found,
				})
			}
			if written {
				fmt.Fprintf(e.stdout, "wrote %s (every value in it is a default; edit what you need)\n", config.File)
			} else {
				fmt.Fprintf(e.stdout, "kept the existing %s\n", config.File)
			}
			for _, n := range s.Cfg.Namespaces {
				if n.From == "" {
					continue
				}
				states := "Kano's default states"
				switch {
				case n.Unchecked:
					states = n.Note
				case len(n.States) > 0:
					states = strings.Join(n.States, ", ")
				}
				fmt.Fprintf(e.stdout, "Kano product %s in %s: %s\n", n.Name, n.Path, states)
			}
			printBuilt(e.stdout, res.Stats, st)
			if count > 0 {
				fmt.Fprintf(e.stdout, "%s found; list them with canon problems\n", plural(count, "problem"))
			}
			fmt.Fprintln(e.stdout, "next: canon hooks install, so that commits and checkouts keep the index fresh")
			return nil
		},
	}
}

// writeDefaultConfig writes .canon/config.yaml unless it exists,
// atomically: the defaults, and what canon detected as comments.
func writeDefaultConfig(root, detected string) (bool, error) {
	path := filepath.Join(root, filepath.FromSlash(config.File))
	if _, err := os.Stat(path); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	if err := safepath.MkdirAll(filepath.Dir(path), 0o755, root); err != nil {
		return false, err
	}
	if err := safepath.WriteFile(path, []byte(config.Template+detected), 0o644, root); err != nil {
		return false, fmt.Errorf("write %s: %w", config.File, err)
	}
	return true, nil
}

func printBuilt(w io.Writer, stats *index.Stats, st *index.Status) {
	rate := ""
	if secs := stats.Elapsed.Seconds(); secs > 0 && float64(stats.Documents)/secs >= 1 {
		rate = fmt.Sprintf(", %s docs/s", thousands(int(float64(stats.Documents)/secs)))
	}
	fmt.Fprintf(w, "indexed %s documents in %s%s", thousands(stats.Documents), roundDur(stats.Elapsed), rate)
	if stats.Skipped > 0 {
		fmt.Fprintf(w, "; %d files skipped", stats.Skipped)
	}
	fmt.Fprintln(w)

}

func indexCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "index",
		Usage: "bring the index up to date with the working tree (--full: rebuild it from nothing)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "full", Usage: "rebuild from nothing instead of reading only what changed"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.Bool("full") {
				return fullIndex(c, e)
			}
			s, err := e.openNoSync("canon index")
			if err != nil {
				return err
			}
			defer s.Close()
			res, err := s.Reconcile(c.Context)
			if err != nil {
				return err
			}
			return printSync(c, e, res)
		},
	}
}

func fullIndex(c *cli.Context, e *env) error {
	s, err := e.openNoSync("canon index --full")
	if err != nil {
		if !isDamaged(err) {
			return err
		}
		// The database itself is broken: it is derived, so start over.
		repo, rerr := gitsync.Discover(e.dir)
		if rerr != nil {
			return err
		}
		e.notef("the index database was damaged; removing it and building a new one")
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(repo.IndexPath() + suffix)
		}
		if s, err = e.openNoSync("canon index --full"); err != nil {
			return err
		}
	}
	defer s.Close()
	res, err := s.Rebuild(c.Context, "")
	if err != nil {
		return err
	}
	st, err := s.Store.Counts(c.Context)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		return writeJSON(e.stdout, map[string]any{
			"action": res.Action, "head": res.To, "documents": res.Stats.Documents,
			"skipped_files": res.Stats.Skipped,
			"elapsed_ms":    res.Stats.Elapsed.Milliseconds(),
		})
	}
	printBuilt(e.stdout, res.Stats, st)
	return nil
}

func isDamaged(err error) bool {
	return errors.Is(index.Explain(err, ""), index.ErrDamaged)
}

func statusCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "show where the index is, the commit it reflects, its counts and whether it is behind",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			// status reports the index as it is: it is the one command
			// that does not catch up first.
			s, err := e.openNoSync("canon status")
			if err != nil {
				return err
			}
			defer s.Close()
			head, ref, err := s.Repo.Head()
			if err != nil {
				return err
			}
			meta, err := s.Store.AllMeta()
			if err != nil {
				return err
			}
			st, err := s.Store.Counts(c.Context)
			if err != nil {
				return err
			}
			_, behind, err := s.Behind()
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(s.Repo.Root, s.Store.Path())
			out := statusJSON{
				Index: filepath.ToSlash(rel), Schema: index.SchemaVersion, Head: head,
				Branch: strings.TrimPrefix(ref, "refs/heads/"), IndexedHead: meta[index.MetaHead],
				Behind: behind, ConfigChanged: meta[index.MetaConfig] != "" && meta[index.MetaConfig] != s.Cfg.IndexHash(),
				SyncedAt: meta[index.MetaSyncedAt], BuiltAt: meta[index.MetaBuiltAt], Status: st,
			}
			if out.Problems, err = s.LastChecked(); err != nil {
				return err
			}
			if out.Watcher, err = watch.Observe(s.Repo.CanonDir()); err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, out)
			}
			printStatus(e.stdout, &out)
			return nil
		},
	}
}

type statusJSON struct {
	Index         string `json:"index"`
	Schema        int    `json:"schema"`
	Head          string `json:"head"`
	Branch        string `json:"branch"`
	IndexedHead   string `json:"indexed_head"`
	Behind        bool   `json:"behind"`
	ConfigChanged bool   `json:"config_changed"`
	SyncedAt      string `json:"synced_at"`
	BuiltAt       string `json:"built_at"`
	*index.Status
	// Problems is what the last check of every document (check --all,
	// canon problems, init) counted; null before there was one.
	Problems *gitsync.Checked `json:"problems"`
	Watcher  *watch.Observed  `json:"watcher"`
}

func printStatus(w io.Writer, s *statusJSON) {
	fmt.Fprintf(w, "index     %s (schema %d)\n", s.Index, s.Schema)
	branch := s.Branch
	if branch == "" {
		branch = "detached"
	}
	switch {
	case s.BuiltAt == "":
		fmt.Fprintf(w, "head      %s (%s): not indexed yet; run canon index\n", shortHash(s.Head), branch)
	case s.Behind && s.ConfigChanged:
		fmt.Fprintf(w, "head      %s (%s): the configuration changed since the last build; any command rebuilds\n", shortHash(s.Head), branch)
	case s.Behind:
		fmt.Fprintf(w, "head      %s (%s): behind, the index reflects %s; any command catches up\n", shortHash(s.Head), branch, shortHash(s.IndexedHead))
	default:
		fmt.Fprintf(w, "head      %s (%s): up to date\n", shortHash(s.Head), branch)
	}
	if s.SyncedAt != "" {
		fmt.Fprintf(w, "synced    %s\n", ago(s.SyncedAt))
	}
	printWatcher(w, s.Watcher)
	kinds := make([]string, 0, len(s.Kinds))
	for k := range s.Kinds {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %d", k, s.Kinds[k]))
	}
	fmt.Fprintf(w, "documents %s", thousands(s.Documents))
	if len(parts) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(parts, ", "))
	}
	fmt.Fprintln(w)
	if s.Skipped > 0 {
		fmt.Fprintf(w, "skipped   %d files (see canon problems)\n", s.Skipped)
	}
	l := s.Links
	fmt.Fprintf(w, "links     %s resolved, %d dangling, %d ambiguous, %d external, %d to other files\n",
		thousands(l.Resolved), l.Dangling, l.Ambiguous, l.External, l.Files)
	fmt.Fprintf(w, "chunks    %s\n", thousands(s.Chunks))
	switch c := s.Problems; {
	case c == nil:
		fmt.Fprintln(w, "problems  not counted yet; canon problems lists them")
	case c.Current:
		fmt.Fprintf(w, "problems  %s, %s in %s (canon problems lists them)\n", plural(c.Errors, "error"), plural(c.Warnings, "warning"), plural(c.Files, "file"))
	default:
		fmt.Fprintf(w, "problems  %s, %s at the last count, before the index moved; canon problems counts again\n", plural(c.Errors, "error"), plural(c.Warnings, "warning"))
	}
}

func searchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "full-text search over sections, ranked by bm25",
		ArgsUsage: "QUERY",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Value: 10, Usage: "at most `N` hits"},
			&cli.StringFlag{Name: "kind", Usage: "only documents of kind `K` (task, epic, adr, doc, ...)"},
			&cli.StringFlag{Name: "namespace", Usage: "only documents of namespace `NS` (a Kano product, a folder in namespaces:)"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			q := strings.Join(c.Args().Slice(), " ")
			if strings.TrimSpace(q) == "" {
				return fail(2, "search needs a query; for example canon search \"token refresh\"")
			}
			if c.Int("limit") < 1 {
				return fail(2, "--limit must be at least 1")
			}
			s, err := e.open(c, "canon search")
			if err != nil {
				return err
			}
			defer s.Close()
			hits, err := s.Store.Search(c.Context, q, index.SearchOptions{Limit: c.Int("limit"), Kind: c.String("kind"), Namespace: c.String("namespace")})
			if errors.Is(err, index.ErrNoNamespace) {
				return fail(2, "--namespace: %s", strings.TrimPrefix(err.Error(), index.ErrNoNamespace.Error()+": "))
			}
			if err != nil {
				return err
			}
			if c.Bool("json") {
				if hits == nil {
					hits = []index.Hit{}
				}
				return writeJSON(e.stdout, map[string]any{"query": q, "hits": hits})
			}
			if len(hits) == 0 {
				fmt.Fprintf(e.stdout, "no matches for %q\n", q)
				return nil
			}
			for i, h := range hits {
				section := ""
				if h.Section != "" {
					section = " › " + h.Section
				}
				fmt.Fprintf(e.stdout, "%d. %s  %s%s\n", i+1, h.ID, h.Title, section)
				fmt.Fprintf(e.stdout, "   %s:%d  [%s]\n", index.QuotePath(h.Path), h.Line, h.Key)
				if h.Snippet != "" {
					fmt.Fprintf(e.stdout, "   %s\n", h.Snippet)
				}
			}
			return nil
		},
	}
}

func showCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show one document: frontmatter, edges out and in, sections, problems",
		ArgsUsage: "ID|UID|PATH",
		Flags:     []cli.Flag{jsonFlag, &cli.BoolFlag{Name: "text", Usage: "include each section's text"}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fail(2, "show needs one document: an id, uid, node key or path; for example canon show KB-TSK-0042")
			}
			s, err := e.open(c, "canon show")
			if err != nil {
				return err
			}
			defer s.Close()
			doc, err := findOne(c, s, c.Args().First())
			if err != nil {
				return err
			}
			v, err := s.Store.Show(c.Context, doc.Key, c.Bool("text"))
			if err != nil {
				return err
			}
			// The document's problems by check's rules, as canon problems
			// and check --all report them.
			if v.Problems, err = s.DocProblems(c.Context, v.Path); err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, v)
			}
			printDoc(e.stdout, v)
			return nil
		},
	}
}

// findOne resolves a reference to exactly one document or says why not.
func findOne(c *cli.Context, s *gitsync.Session, ref string) (*index.DocRef, error) {
	if rel, ok := relToRepo(s.Repo.Root, ref); ok {
		ref = rel
	}
	doc, err := findRef(c.Context, s, ref, fmt.Sprintf("canon search %q", ref))
	var nf *notFound
	if errors.As(err, &nf) {
		return nil, fail(1, "%v", err)
	}
	return doc, err
}

// notFound says a reference names no document, or several.
type notFound struct{ msg string }

func (e *notFound) Error() string { return e.msg }

// findRef resolves a reference to exactly one document; hint is what to
// try when it names none (the CLI's canon search, the MCP tool search).
func findRef(ctx context.Context, s *gitsync.Session, ref, hint string) (*index.DocRef, error) {
	docs, err := s.Store.Find(ctx, ref)
	if err != nil {
		return nil, err
	}
	switch len(docs) {
	case 0:
		return nil, &notFound{fmt.Sprintf("no document is called %q; try %s", ref, hint)}
	case 1:
		return &docs[0], nil
	}
	var names []string
	for _, d := range docs {
		names = append(names, fmt.Sprintf("%s (%s)", d.Path, d.Key))
	}
	return nil, &notFound{fmt.Sprintf("%q names %d documents: %s; give the path or the node key", ref, len(docs), strings.Join(names, ", "))}
}

// relToRepo turns a path given on the command line (relative to the current
// folder) into a repo-relative one, when it names an existing file.
func relToRepo(root, arg string) (string, bool) {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return "", false
	}
	if _, err := os.Stat(abs); err != nil {
		return "", false
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func printDoc(w io.Writer, v *index.DocView) {
	fmt.Fprintf(w, "%s  %s\n", v.ID, v.Title)
	fmt.Fprintf(w, "key    %s\n", v.Key)
	fmt.Fprintf(w, "path   %s\n", v.Path)
	kind := v.Kind
	if v.Type != "" && !strings.EqualFold(v.Type, v.Kind) {
		kind += " (type " + v.Type + ")"
	}
	fmt.Fprintf(w, "kind   %s", kind)
	if v.State != "" {
		fmt.Fprintf(w, "   state %s", v.State)
	}
	fmt.Fprintln(w)
	if fm := frontmatterLines(v.Frontmatter); len(fm) > 0 {
		fmt.Fprintln(w, "\nfrontmatter")
		for _, l := range fm {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	fmt.Fprintln(w, "\noutgoing")
	if len(v.Outgoing) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, ed := range v.Outgoing {
		fmt.Fprintf(w, "  %-12s %s\n", ed.Type, describeOut(ed))
	}
	fmt.Fprintln(w, "\nincoming")
	if len(v.Incoming) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, ed := range v.Incoming {
		fmt.Fprintf(w, "  %-12s ← %s  %s  (%s)\n", ed.Type, ed.Other.ID, ed.Other.Title, where(ed))
	}
	fmt.Fprintln(w, "\nsections")
	for _, sec := range v.Sections {
		name := sec.Heading
		if name == "" {
			name = "(before the first heading)"
		}
		fmt.Fprintf(w, "  %-32s %s  lines %d–%d\n", "#"+sec.Slug, name, sec.Line, sec.EndLine)
		if t := strings.TrimRight(sec.Text, "\n"); t != "" { // --text
			for _, line := range strings.Split(t, "\n") {
				fmt.Fprintf(w, "    │ %s\n", line)
			}
		}
	}
	if len(v.Problems) > 0 {
		fmt.Fprintln(w, "\nproblems")
		for _, p := range v.Problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
}

func describeOut(ed index.Edge) string {
	target := ed.Raw
	if ed.Form == "wiki" || ed.Form == "embed" {
		target = "[[" + ed.Raw + "]]"
	}
	if ed.Anchor != "" {
		target += "#" + ed.Anchor
	}
	switch ed.Status {
	case index.StatusOK:
		return fmt.Sprintf("→ %s  %s  (%s)", ed.Other.ID, ed.Other.Title, where(ed))
	case index.StatusSelf:
		return fmt.Sprintf("→ this document %s  (%s)", target, where(ed))
	case index.StatusExternal:
		return fmt.Sprintf("→ %s  (external, %s)", target, where(ed))
	case index.StatusFile:
		return fmt.Sprintf("→ %s  (a file, not a document, %s)", target, where(ed))
	}
	return fmt.Sprintf("✗ %s  (%s, %s)", target, ed.Status, where(ed))
}

func where(ed index.Edge) string {
	if ed.Field != "" {
		return fmt.Sprintf("%s, line %d", ed.Field, ed.Line)
	}
	return fmt.Sprintf("%s:%d", index.QuotePath(ed.Path), ed.Line)
}

func problemsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "problems",
		Usage: "list every problem of every document, by the rules of canon check --all: path:line:col: severity rule: message",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			s, err := e.open(c, "canon problems")
			if err != nil {
				return err
			}
			defer s.Close()
			// As check --all: the working tree as it is, every rule.
			if _, err := s.Reconcile(c.Context); err != nil {
				return err
			}
			res, err := s.CheckAll(c.Context)
			if err != nil {
				return err
			}
			probs := res.Findings
			if probs == nil {
				probs = []check.Finding{}
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, map[string]any{"problems": probs, "summary": check.Summarize(probs, len(res.Checked))})
			}
			for _, p := range probs {
				fmt.Fprintln(e.stdout, p)
			}
			if len(probs) == 0 {
				fmt.Fprintln(e.stdout, "no problems")
				return nil
			}
			sum := check.Summarize(probs, len(res.Checked))
			fmt.Fprintf(e.stdout, "%s, %s in %s\n", plural(sum.Errors, "error"), plural(sum.Warnings, "warning"), plural(sum.Files, "file"))
			return nil
		},
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 10000 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func roundDur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	}
	return d.Round(10 * time.Millisecond).String()
}

func shortHash(h string) string {
	if h == "" {
		return "(no commits yet)"
	}
	if len(h) > 10 {
		return h[:10]
	}
	return h
}

func ago(rfc string) string {
	t, err := time.Parse(time.RFC3339, rfc)
	if err != nil {
		return rfc
	}
	d := time.Since(t).Round(time.Second)
	return fmt.Sprintf("%s (%s ago)", t.Local().Format("2006-01-02 15:04:05"), d)
}
