package main

import (
	"errors"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/workset"
)

// idCommand is canon id: the ids of the repository's documents (issue 25,
// ADR-0043).
func idCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "id",
		Usage: "rename a document's id and every reference to it",
		Subcommands: []*cli.Command{
			idRenameCommand(e),
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
				if !res.DryRun {
					for _, fc := range res.Files {
						if fc.From != "" {
							if err := s.Repo.StageRename(c.Context, fc.From, fc.Path); err != nil {
								return nil, err
							}
						}
					}
				}
				return res, nil
			})
		},
	}
}
