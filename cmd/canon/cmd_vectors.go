package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/safepath"
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
					return importVectors(r, c.Args().First(), c.Int("words"))
				})
			},
		}, {
			Name:  "remove",
			Usage: "delete the word-vectors sidecar: searches add no related words",
			Flags: []cli.Flag{jsonFlag},
			Action: func(c *cli.Context) error {
				return e.withRepo(c, func(r *gitsync.Repo) (output, error) {
					path := r.VectorsPath()
					err := safepath.Remove(path, r.GitDir)
					if errors.Is(err, fs.ErrNotExist) {
						return &vectorsResult{Action: "absent", Path: r.Shown(path)}, nil
					}
					return &vectorsResult{Action: "removed", Path: r.Shown(path)}, err
				})
			},
		}},
	}
}

// importVectors reads the vectors file the user named and writes the
// sidecar.
func importVectors(r *gitsync.Repo, file string, words int) (*vectorsResult, error) {
	data, err := safepath.ReadArgument(file, vectors.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	t, err := vectors.Read(data, words)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; canon vectors import reads GloVe's text or wink's JSON: fix the file or name another", file, err)
	}
	path := r.VectorsPath()
	if err := safepath.MkdirAll(filepath.Dir(path), 0o755, r.GitDir); err != nil {
		return nil, err
	}
	out := t.Encode()
	if err := safepath.WriteFile(path, out, 0o644, r.GitDir); err != nil {
		return nil, err
	}
	return &vectorsResult{Action: "imported", Path: r.Shown(path), From: file, Words: t.Len(), Dimensions: t.Dim(), Bytes: len(out)}, nil
}

// vectorsResult is what canon vectors import and remove did.
type vectorsResult struct {
	Action     string `json:"action"` // imported, removed, absent (nothing to remove)
	Path       string `json:"path"`   // the sidecar
	From       string `json:"from,omitempty"`
	Words      int    `json:"words,omitempty"`
	Dimensions int    `json:"dimensions,omitempty"`
	Bytes      int    `json:"bytes,omitempty"`
}

func (v *vectorsResult) WriteText(w io.Writer) error {
	var err error
	switch v.Action {
	case "imported":
		_, err = fmt.Fprintf(w, "imported %d words of %d dimensions from %s into %s (%d bytes); natural searches now add related words (--no-vectors: not)\n", v.Words, v.Dimensions, v.From, v.Path, v.Bytes)
	case "removed":
		_, err = fmt.Fprintf(w, "removed %s; searches add no related words\n", v.Path)
	default:
		_, err = fmt.Fprintf(w, "there is no %s to remove; searches add no related words\n", v.Path)
	}
	return err
}
