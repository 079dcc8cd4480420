package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/vectors"
)

// noVectorsFlag is --no-vectors of the commands a sidecar bridges.
var noVectorsFlag = &cli.BoolFlag{Name: "no-vectors", Usage: "do not add words by the word-vectors sidecar (canon vectors import)"}

// useVectors makes a session's natural searches bridge by the sidecar,
// when there is one, unless --no-vectors.
func useVectors(c *cli.Context, s *gitsync.Session) {
	if !c.Bool("no-vectors") {
		s.Store.UseVectors(s.Repo.VectorsPath(), s.Repo.GitDir)
	}
}

func vectorsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "vectors",
		Usage: "import or remove the word vectors a natural search adds related words by (off until imported)",
		Subcommands: []*cli.Command{{
			Name:      "import",
			Usage:     "read word vectors from FILE (wink's JSON or GloVe's text) and keep the most frequent words' in a sidecar beside the index",
			ArgsUsage: "FILE",
			Flags: []cli.Flag{
				&cli.IntFlag{Name: "words", Value: vectors.DefaultWords, Usage: fmt.Sprintf("keep the `N` most frequent lower-case words (at most %d, and %d numbers in all)", vectors.MaxWords, vectors.MaxCells)},
				jsonFlag,
			},
			Action: func(c *cli.Context) error {
				if c.NArg() != 1 {
					return fail(2, "vectors import needs one file of word vectors; for example canon vectors import glove.6B.100d.txt")
				}
				if n := c.Int("words"); n < 1 || n > vectors.MaxWords {
					return fail(2, "--words must be between 1 and %d", vectors.MaxWords)
				}
				return e.withRepo(c, func(r *gitsync.Repo) (output, error) {
					return gitsync.ImportVectors(r, c.Args().First(), c.Int("words"))
				})
			},
		}, {
			Name:  "remove",
			Usage: "delete the word-vectors sidecar: searches add no related words",
			Flags: []cli.Flag{jsonFlag},
			Action: func(c *cli.Context) error {
				return e.withRepo(c, func(r *gitsync.Repo) (output, error) { return gitsync.RemoveVectors(r) })
			},
		}},
	}
}
