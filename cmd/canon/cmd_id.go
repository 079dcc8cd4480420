package main

import (
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/ids"
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
				res, err := usecase.RenameID(c.Context, s, c.Args().Get(0), c.Args().Get(1), at, c.Bool("dry-run"))
				if errors.Is(err, usecase.ErrIDRename) {
					return nil, fail(2, "%s", beyond(err, usecase.ErrIDRename))
				}
				if err != nil {
					return nil, worksetError(err)
				}
				return res, nil
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
			"and what every followed branch and worktree holds where it differs from HEAD (the overlays):\n" +
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
				id, err := usecase.Next(c.Context, s, c.Args().First(), c.String("namespace"))
				if errors.Is(err, usecase.ErrNamespace) {
					return nil, fail(2, "%s", beyond(err, usecase.ErrNamespace))
				}
				if errors.Is(err, ids.ErrNoSeries) {
					return nil, fail(1, "%s", beyond(err, ids.ErrNoSeries))
				}
				return id, err
			})
		},
	}
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
				out, err := usecase.FixIDs(c.Context, s, dry)
				if err != nil {
					return nil, worksetError(err)
				}
				return out, nil
			})
		},
	}
}
