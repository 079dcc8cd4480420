package gitsync

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/vectors"
)

// ImportVectors reads the word vectors of file, which the user named on
// the command line, keeps the first words of them (vectors.ReadFrom) and
// writes the sidecar a natural search bridges its vocabulary by
// (VectorsPath, ADR-0050), atomically. The file is read as it comes, never
// held whole: what the import holds is the words it keeps, whatever the
// file's size.
func ImportVectors(r *Repo, file string, words int) (*VectorsResult, error) {
	f, err := openVectors(file)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("cannot read the vectors file %s: %w; name a file of word vectors", human.QuotePath(file), pe.Err)
	}
	if err != nil {
		return nil, err
	}
	t, err := vectors.ReadFrom(f, words)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w; canon vectors import reads GloVe's text or wink's JSON: fix the file or name another", human.QuotePath(file), err)
	}
	path := r.VectorsPath()
	if err := safepath.MkdirAll(filepath.Dir(path), 0o755, r.GitDir); err != nil {
		return nil, err
	}
	out := t.Encode()
	if _, err := vectors.Decode(out); err != nil { // what a search will read: never write a sidecar it refuses
		return nil, fmt.Errorf("%s: %w; canon vectors import reads GloVe's text or wink's JSON: fix the file or name another", human.QuotePath(file), err)
	}
	if err := safepath.WriteFile(path, out, 0o644, r.GitDir); err != nil {
		return nil, err
	}
	return &VectorsResult{Action: "imported", Path: r.Shown(path), From: file, Words: t.Len(), Dimensions: t.Dim(), Bytes: len(out)}, nil
}

// openVectors opens the vectors file as safepath.ReadArgument reads one,
// for a read that streams: a regular file (asked before the open, which
// does not wait for a named pipe's writer, and again of the opened file),
// at most vectors.MaxFileBytes long.
func openVectors(file string) (*os.File, error) {
	pre, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if !pre.Mode().IsRegular() {
		return nil, &safepath.NotRegularError{Path: file, Mode: pre.Mode()}
	}
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case !fi.Mode().IsRegular():
		err = &safepath.NotRegularError{Path: file, Mode: fi.Mode()}
	case fi.Size() > vectors.MaxFileBytes:
		err = &safepath.TooLargeError{Path: file, Limit: vectors.MaxFileBytes}
	default:
		return f, nil
	}
	f.Close()
	return nil, err
}

// RemoveVectors deletes the sidecar: searches bridge nothing.
func RemoveVectors(r *Repo) (*VectorsResult, error) {
	path := r.VectorsPath()
	err := safepath.Remove(path, r.GitDir)
	if errors.Is(err, fs.ErrNotExist) {
		return &VectorsResult{Action: "absent", Path: r.Shown(path)}, nil
	}
	if err != nil {
		return nil, err
	}
	return &VectorsResult{Action: "removed", Path: r.Shown(path)}, nil
}

// VectorsResult is what canon vectors import and remove did.
type VectorsResult struct {
	Action     string `json:"action"` // imported, removed, absent (nothing to remove)
	Path       string `json:"path"`   // the sidecar
	From       string `json:"from,omitempty"`
	Words      int    `json:"words,omitempty"`
	Dimensions int    `json:"dimensions,omitempty"`
	Bytes      int    `json:"bytes,omitempty"`
}

func (v *VectorsResult) WriteText(w io.Writer) error {
	var err error
	switch v.Action {
	case "imported":
		_, err = fmt.Fprintf(w, "imported %d words of %d dimensions from %s into %s (%d bytes); natural searches now add related words (--no-vectors: not)\n", v.Words, v.Dimensions, human.QuotePath(v.From), human.QuotePath(v.Path), v.Bytes)
	case "removed":
		_, err = fmt.Fprintf(w, "removed %s; searches add no related words\n", human.QuotePath(v.Path))
	default:
		_, err = fmt.Fprintf(w, "there is no %s to remove; searches add no related words\n", human.QuotePath(v.Path))
	}
	return err
}
