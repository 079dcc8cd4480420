package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/vectors"
)

// vectorSidecar is the word-vectors sidecar a store's natural searches
// bridge their vocabulary by (index/search, ADR-0050), read on the first
// search that needs it.
type vectorSidecar struct {
	path  string
	roots []string
	mu    sync.Mutex
	table *vectors.Table
	stamp sidecarStamp // the file table was read from
}

// sidecarStamp tells a sidecar file that changed (an import or a
// removal while canon mcp runs) from the one read.
type sidecarStamp struct {
	size int64
	mod  time.Time
}

// UseVectors makes natural searches bridge their vocabulary by the
// sidecar at path (inside roots), when it exists; a missing sidecar
// bridges nothing. It is read, and checked, once, when a search first
// needs it (Vectors).
func (s *Store) UseVectors(path string, roots ...string) {
	s.vectors = &vectorSidecar{path: path, roots: roots}
}

// Vectors is the word-vectors sidecar UseVectors named, read: nil when
// none was named or the file is not there. A damaged sidecar is an error
// that names it.
func (s *Store) Vectors() (*vectors.Table, error) {
	if s.vectors == nil {
		return nil, nil
	}
	return s.vectors.load()
}

// load reads the sidecar: nil when there is none. A long-lived store
// (canon mcp) reads it again when the file changed since, and keeps
// neither a failure nor an absence: an import, a removal or a repair
// counts at the next search.
func (v *vectorSidecar) load() (*vectors.Table, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	fi, err := os.Stat(v.path)
	if errors.Is(err, fs.ErrNotExist) {
		v.table = nil
		return nil, nil
	}
	if err != nil {
		v.table = nil
		return nil, fmt.Errorf("%s: %w", v.path, err)
	}
	stamp := sidecarStamp{fi.Size(), fi.ModTime()}
	if v.table != nil && stamp == v.stamp {
		return v.table, nil
	}
	v.table = nil
	data, err := safepath.ReadFile(v.path, vectors.MaxSidecarBytes, v.roots...)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var t *vectors.Table
	if err == nil {
		t, err = vectors.Decode(data)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", v.path, err)
	}
	v.table, v.stamp = t, stamp
	return t, nil
}
