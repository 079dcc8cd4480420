package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
)

type stats struct {
	files int
	bytes int64
	paths []string // every file written, slash-separated, relative to the output, sorted
}

// generate writes the corpus described by c into c.out. Documents are rendered in parallel;
// each has its own random stream, so the output does not depend on scheduling.
func generate(c config) (stats, error) {
	if err := ensureEmpty(c.out); err != nil {
		return stats{}, err
	}
	p, err := newPlan(c.n, c.adrs, c.seed)
	if err != nil {
		return stats{}, err
	}
	dirs := map[string]bool{productRoot + "/decisions": true}
	for i := range p.items {
		dirs[p.items[i].dir()] = true
	}
	sorted := make([]string, 0, len(dirs))
	for d := range dirs {
		sorted = append(sorted, d)
	}
	sort.Strings(sorted)
	for _, d := range sorted {
		if err := os.MkdirAll(filepath.Join(c.out, filepath.FromSlash(d)), 0o755); err != nil {
			return stats{}, err
		}
	}

	total := len(p.items) + len(p.adrs)
	var (
		next     atomic.Int64
		written  atomic.Int64
		firstErr error
		errOnce  sync.Once
		wg       sync.WaitGroup
	)
	// Writing files is mostly waiting on the file system, so use more workers than CPUs.
	for range max(8, 4*runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b bytes.Buffer
			for {
				k := int(next.Add(1) - 1)
				if k >= total {
					return
				}
				b.Reset()
				var rel string
				if k < len(p.items) {
					p.renderItem(&b, k)
					rel = p.items[k].path()
				} else {
					p.renderADR(&b, k-len(p.items))
					rel = p.adrs[k-len(p.items)].path()
				}
				if err := os.WriteFile(filepath.Join(c.out, filepath.FromSlash(rel)), b.Bytes(), 0o644); err != nil {
					errOnce.Do(func() { firstErr = err })
					next.Store(int64(total)) // stop the other workers
					return
				}
				written.Add(int64(b.Len()))
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return stats{}, firstErr
	}
	paths := make([]string, 0, total)
	for i := range p.items {
		paths = append(paths, p.items[i].path())
	}
	for j := range p.adrs {
		paths = append(paths, p.adrs[j].path())
	}
	sort.Strings(paths)
	return stats{files: total, bytes: written.Load(), paths: paths}, nil
}

// ensureEmpty creates dir or checks that it is empty: gencorpus never deletes anything.
func ensureEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s is not empty; choose a new folder or remove it first", dir)
	}
	return nil
}
