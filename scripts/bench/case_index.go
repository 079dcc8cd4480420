package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// benchIndex: `canon index --full`, the whole process, against the floor of
// a full build with FTS5's default tokenizer and with canon's; its peak RSS.
// Each round runs the floors and canon back to back, so that load from other
// processes on the machine falls on all of them alike.
func (b *bench) benchIndex(c *corpus) error {
	read := b.row(c, "index", "floor part: read every document (in process)", "ms", nil, nil)
	floorDef := b.row(c, "index", "floor: read, split at headings, insert into FTS5, one transaction (default tokenizer; in process)", "ms", nil, nil)
	floorCanon := b.row(c, "index", "floor: the same with canon's tokenizer `porter unicode61 remove_diacritics 2`", "ms", nil, nil)
	full := b.row(c, "index", "`canon index --full` ÷ floor with canon's tokenizer", "ms", tIndexRatio, floorCanon)
	fullDef := b.row(c, "index", "`canon index --full` ÷ floor with the default tokenizer", "ms", tIndexRatio, floorDef)
	rss := b.row(c, "index", "`canon index --full` peak RSS", "MB", tIndexRSS, nil)

	var files, sections int
	series := time.Now()
	for i := -1; i < b.runs; i++ { // i = -1: warm-up, not recorded
		if b.spent(series, c, "index", i, b.runs) {
			break
		}
		start := time.Now()
		n, err := floorRead(c)
		if err != nil {
			return fmt.Errorf("floor (read): %w", err)
		}
		dRead := time.Since(start)

		start = time.Now()
		if _, _, err := floorBuild(c, tokDefault); err != nil {
			return fmt.Errorf("floor (default tokenizer): %w", err)
		}
		dDef := time.Since(start)

		start = time.Now()
		files, sections, err = floorBuild(c, tokCanon)
		if err != nil {
			return fmt.Errorf("floor (canon's tokenizer): %w", err)
		}
		dCanon := time.Since(start)
		if files != n || files != c.n+c.adrs {
			return fmt.Errorf("the floor read %d documents (read pass %d), the corpus has %d", files, n, c.n+c.adrs)
		}

		if err := os.RemoveAll(filepath.Join(c.dir, ".git", "canon")); err != nil {
			return err
		}
		p, err := b.canonRun(c, "index", "--full")
		if err != nil {
			return err
		}
		if i < 0 {
			continue
		}
		read.add(ms(dRead))
		floorDef.add(ms(dDef))
		floorCanon.add(ms(dCanon))
		full.add(ms(p.wall))
		fullDef.add(ms(p.wall))
		rss.add(p.rssMB)
		logf("[%s] index %d/%d: read %.0f ms, floor %.0f / %.0f ms, canon %.0f ms, %.0f MB", c.name(), i+1, b.runs,
			ms(dRead), ms(dDef), ms(dCanon), ms(p.wall), p.rssMB)
	}

	// Correctness, once: the index reflects HEAD and holds every document.
	st, err := b.status(c)
	if err != nil {
		return err
	}
	if st.Behind || st.Documents != files {
		return fmt.Errorf("after canon index --full: status says behind=%v, %d documents (want %d)", st.Behind, st.Documents, files)
	}
	b.note("index @%s: %d documents; canon stored %d chunks, the floor %d sections; %d problems", c.name(),
		st.Documents, st.Chunks, sections, st.Problems.Errors+st.Problems.Warnings)
	return nil
}

type status struct {
	Head        string `json:"head"`
	IndexedHead string `json:"indexed_head"`
	Behind      bool   `json:"behind"`
	Documents   int    `json:"documents"`
	Chunks      int    `json:"chunks"`
	Problems    struct {
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
	} `json:"problems"`
}

// status runs `canon status --json`. Canon catches up before it answers, so
// this says whether the index is right now, not whether it was before.
func (b *bench) status(c *corpus) (*status, error) {
	p, err := b.canonRun(c, "status", "--json")
	if err != nil {
		return nil, err
	}
	var st status
	if err := json.Unmarshal([]byte(p.stdout), &st); err != nil {
		return nil, fmt.Errorf("canon status --json: %w", err)
	}
	return &st, nil
}
