package graph

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/google/renameio/v2"

	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/safepath"
)

// Export formats.
const (
	FormatDOT     = "dot"
	FormatMermaid = "mermaid"
	FormatJSONL   = "jsonl"
	FormatJSON    = "json" // one JSON document on standard output
)

// OutError is an export destination canon may not write: outside the
// repository, or through a link leading out of it.
type OutError struct{ Err error }

func (e *OutError) Error() string { return e.Err.Error() }
func (e *OutError) Unwrap() error { return e.Err }

// ExportedFiles is what an export written to files wrote.
type ExportedFiles struct {
	Format string   `json:"format"`
	Files  []string `json:"files"`
	*Exported
}

// ExportTo runs an export in format into files written atomically inside
// root: for jsonl the folder out ("": the current one) gets
// graph_nodes.jsonl and graph_edges.jsonl; for dot, mermaid and json the
// file out. With out "" those three go to w instead, and the result is
// nil: the export is the output.
func (g *Graph) ExportTo(ctx context.Context, opt ExportOptions, format, out, root string, w io.Writer) (*ExportedFiles, error) {
	var files []*renameio.PendingFile
	defer func() {
		for _, f := range files {
			_ = f.Cleanup() // best effort: a temporary file left behind
		}
	}()
	create := func(path string) (io.Writer, error) {
		if err := safepath.Writable(path, root); err != nil {
			return nil, &OutError{err}
		}
		f, err := renameio.NewPendingFile(path, renameio.WithPermissions(0o644), renameio.WithExistingPermissions())
		if err != nil {
			return nil, fmt.Errorf("write %s: %w", path, err)
		}
		files = append(files, f)
		return f, nil
	}
	var sink Sink
	var paths []string
	switch format {
	case FormatJSONL:
		dir := out
		if dir == "" {
			dir = "."
		}
		if err := safepath.MkdirAll(dir, 0o755, root); err != nil {
			return nil, &OutError{err}
		}
		paths = []string{filepath.Join(dir, "graph_nodes.jsonl"), filepath.Join(dir, "graph_edges.jsonl")}
		nw, err := create(paths[0])
		if err != nil {
			return nil, err
		}
		ew, err := create(paths[1])
		if err != nil {
			return nil, err
		}
		sink = JSONL(nw, ew)
	default:
		if out != "" {
			paths = []string{out}
			f, err := create(out)
			if err != nil {
				return nil, err
			}
			w = f
		}
		switch format {
		case FormatJSON:
			sink = JSON(w)
		case FormatMermaid:
			sink = Mermaid(w)
		default:
			sink = DOT(w)
		}
	}
	res, err := g.Export(ctx, opt, sink)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := f.CloseAtomicallyReplace(); err != nil {
			return nil, err
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	for i := range paths {
		paths[i] = filepath.ToSlash(paths[i])
	}
	return &ExportedFiles{Format: format, Files: paths, Exported: res}, nil
}

// WriteText says which files were written and what they hold.
func (x *ExportedFiles) WriteText(w io.Writer) error {
	if x.Format == FormatJSONL {
		fmt.Fprintf(w, "wrote %s (%s) and %s (%s)\n", x.Files[0], human.Plural(x.Nodes, "node"), x.Files[1], human.Plural(x.Edges, "edge"))
	} else {
		fmt.Fprintf(w, "wrote %s (%s, %s)\n", x.Files[0], human.Plural(x.Nodes, "node"), human.Plural(x.Edges, "edge"))
	}
	if x.Capped {
		fmt.Fprintln(w, "the expansion from --root stopped at 10,000 nodes")
	}
	return nil
}
