package main

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/workset"
)

// idCommand is canon id: the ids of the repository's documents (issue 25,
// ADR-0043).
func idCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "id",
		Usage: "the next free id, a rename that rewrites every reference, the repair of ids two documents share",
		Subcommands: []*cli.Command{
			idNextCommand(e),
			idRenameCommand(e),
			idFixCommand(e),
		},
	}
}

func idRenameCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "rename",
		Usage:     "give a document a new id and rewrite every reference to it, in one step",
		ArgsUsage: "OLD NEW",
		Description: "Changes the id: field of the document whose id is OLD (the one at --path when several carry it),\n" +
			"the file name when it carries the id, child ids that embed it (task-12.1), and every reference to\n" +
			"it in the repository's Markdown: frontmatter edges, Markdown links, wiki-links, documents or not.\n" +
			"Each edit changes the reference and nothing else on its line; the files are written all or none.\n" +
			"References to another document that keeps OLD are left alone; those canon cannot attribute are\n" +
			"listed, not guessed. A renamed file git tracks is renamed in git's index too, as git mv does;\n" +
			"nothing is committed. See docs/ids.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "path", Usage: "the document to rename, by `PATH`, when OLD is the id of several"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the unified diff and write nothing"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return fail(2, "id rename takes the old id and the new one: canon id rename OLD NEW")
			}
			return e.with(c, "canon id rename", func(s *gitsync.Session) (output, error) {
				at := c.String("path")
				if at != "" {
					p, err := s.Repo.RepoPath(at)
					if err != nil {
						return nil, fail(2, "--path %v; name a document inside the repository", err)
					}
					at = p
				}
				md, err := s.Repo.MarkdownFiles(c.Context)
				if err != nil {
					return nil, err
				}
				we, err := workset.NewEnv(c.Context, s.Repo.Root, s.Store, s.Cfg, "canon id rename", s.Repo)
				if err != nil {
					return nil, worksetError(err)
				}
				res, err := workset.RenameID(c.Context, s, we, workset.IDRenameArgs{
					Old: c.Args().Get(0), New: c.Args().Get(1), Path: at, Markdown: md}, c.Bool("dry-run"))
				if errors.Is(err, workset.ErrIDRename) {
					return nil, fail(2, "%s", strings.TrimPrefix(err.Error(), workset.ErrIDRename.Error()+": "))
				}
				if err != nil {
					return nil, worksetError(err)
				}
				return res, stageRenames(c, s, res)
			})
		},
	}
}

func idNextCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "next",
		Usage:     "print the next free id of a kind, in the repository's own pattern",
		ArgsUsage: "KIND",
		Description: "KIND is a kind (task, adr) or an id prefix (KB-TSK, task-). The id is the highest number of\n" +
			"that prefix plus one, written with the padding the repository uses, taken over the working tree\n" +
			"and the documents every local and remote-tracking branch added since it left HEAD's history:\n" +
			"two branches that fetched each other do not mint the same id. See docs/ids.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "namespace", Usage: "the id space of the configured namespace `NAME` only"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fail(2, "id next takes one kind or prefix: canon id next task")
			}
			return e.with(c, "canon id next", func(s *gitsync.Session) (output, error) {
				if err := s.SyncWorkingTree(c.Context); err != nil {
					return nil, err
				}
				docs, err := s.Store.IdentDocs(c.Context)
				if err != nil {
					return nil, err
				}
				ns := c.String("namespace")
				if ns != "" && len(s.Cfg.Namespaces.Folders(ns)) == 0 {
					return nil, fail(2, "--namespace %s names no configured namespace", ns)
				}
				// Every followed ref's ids come from the overlays
				// (ADR-0042, ADR-0043).
				id, err := index.NextFree(c.Context, docs, s.Cfg, c.Args().First(), ns, s.RefIDs)
				if errors.Is(err, index.ErrNoSeries) {
					return nil, fail(1, "%s", strings.TrimPrefix(err.Error(), index.ErrNoSeries.Error()+": "))
				}
				if err != nil {
					return nil, err
				}
				return nextID{ID: id}, nil
			})
		},
	}
}

// nextID is canon id next's output: {"id": "KB-TSK-0013"}.
type nextID struct {
	ID string `json:"id"`
}

func (n nextID) WriteText(w io.Writer) error {
	_, err := fmt.Fprintln(w, n.ID)
	return err
}

func idFixCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "fix",
		Usage: "give every document whose id another document has a new id: the one created first keeps it",
		Description: "For each id two different documents carry (not one item on two branches: a shared path or uid;\n" +
			"not an archived document, whose id is free again), the document git added first keeps the id and\n" +
			"each other one gets canon id next of its prefix, by canon id rename (every reference rewritten),\n" +
			"with a worklog line saying what it was renamed from. See docs/ids.md.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "print the unified diff of each rename and write nothing"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 0 {
				return fail(2, "id fix takes no arguments")
			}
			dry := c.Bool("dry-run")
			return e.with(c, "canon id fix", func(s *gitsync.Session) (output, error) {
				if err := s.SyncWorkingTree(c.Context); err != nil {
					return nil, err
				}
				docs, err := s.Store.IdentDocs(c.Context)
				if err != nil {
					return nil, err
				}
				md, err := s.Repo.MarkdownFiles(c.Context)
				if err != nil {
					return nil, err
				}
				we, err := workset.NewEnv(c.Context, s.Repo.Root, s.Store, s.Cfg, "canon id fix", s.Repo)
				if err != nil {
					return nil, worksetError(err)
				}
				out := &idFixed{DryRun: dry, Renames: []*workset.IDRenamed{}}
				var reserved []string
				for _, col := range index.Collisions(docs, s.Cfg) {
					ds := byCreation(c, s, col.Docs)
					for _, d := range ds[1:] {
						prefix, _, _, ok := index.SplitID(d.Ident)
						if !ok {
							out.Left = append(out.Left, fmt.Sprintf("%s (%s) is not a numbered id; give it one with canon id rename", d.Ident, d.Path))
							continue
						}
						ns, _ := s.Cfg.Namespaces.Of(d.Path)
						next, err := index.NextFree(c.Context, docs, s.Cfg, prefix, ns, s.RefIDs, reserved...)
						if err != nil {
							return nil, err
						}
						reserved = append(reserved, next)
						res, err := workset.RenameID(c.Context, s, we, workset.IDRenameArgs{Old: d.Ident, New: next, Path: d.Path, Markdown: md,
							Worklog: fmt.Sprintf("renamed from %s by canon id fix: %s, created first, keeps %s", d.Ident, ds[0].Path, d.Ident)}, dry)
						if err != nil {
							return nil, worksetError(err)
						}
						if err := stageRenames(c, s, res); err != nil {
							return nil, err
						}
						out.Renames = append(out.Renames, res)
					}
				}
				return out, nil
			})
		},
	}
}

// byCreation orders the documents that share an id by when git added
// them (the oldest first; one git does not track comes last), then path.
func byCreation(c *cli.Context, s *gitsync.Session, docs []index.IdentDoc) []index.IdentDoc {
	type dated struct {
		d  index.IdentDoc
		at int64
		ok bool
	}
	ds := make([]dated, len(docs))
	for i, d := range docs {
		at, ok := s.Repo.CreatedAt(c.Context, d.Path)
		ds[i] = dated{d, at, ok}
	}
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.ok != b.ok {
			return a.ok
		}
		if a.at != b.at {
			return a.at < b.at
		}
		return a.d.Path < b.d.Path
	})
	out := make([]index.IdentDoc, len(ds))
	for i, d := range ds {
		out[i] = d.d
	}
	return out
}

// idFixed is what canon id fix did, or would do.
type idFixed struct {
	DryRun  bool                 `json:"dry_run"`
	Renames []*workset.IDRenamed `json:"renames"`
	Left    []string             `json:"left,omitempty"`
}

func (f *idFixed) WriteText(w io.Writer) error {
	for _, r := range f.Renames {
		r.DryRun = false // one "dry run" line at the end
		fmt.Fprint(w, r.Diff)
		r.Diff = ""
		if f.DryRun {
			fmt.Fprint(w, "would be: ")
		}
		if err := r.WriteText(w); err != nil {
			return err
		}
	}
	for _, l := range f.Left {
		fmt.Fprintln(w, "left: "+l)
	}
	if len(f.Renames) == 0 && len(f.Left) == 0 {
		fmt.Fprintln(w, "no id names two documents")
	}
	if f.DryRun {
		fmt.Fprintln(w, "dry run: nothing was written")
	}
	return nil
}

// stageRenames records the files a rename moved in git's index, as git mv
// does (nothing for a dry run).
func stageRenames(c *cli.Context, s *gitsync.Session, res *workset.IDRenamed) error {
	if res.DryRun {
		return nil
	}
	for _, fc := range res.Files {
		if fc.From != "" {
			if err := s.Repo.StageRename(c.Context, fc.From, fc.Path); err != nil {
				return err
			}
		}
	}
	return nil
}
