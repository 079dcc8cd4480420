package main

import (
	"bytes"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The floor of a full build (docs/benchmarks.md): the unavoidable work, in
// process and on one goroutine. Read every document, split it into sections
// at its headings, insert the sections into a bare FTS5 table (title,
// heading, body, as canon's chunks_fts) in one transaction. No frontmatter
// parsing beyond finding its end and the title line, no links, no graph.

// Tokenizers the floor is measured with.
const (
	tokDefault = ""                                     // FTS5's default, unicode61
	tokCanon   = "porter unicode61 remove_diacritics 2" // what canon's chunks_fts uses
)

// floorBatch rows go into one INSERT statement, as canon's bulk writer does:
// one cgo call per row would measure the driver, not the work.
const floorBatch = 32

func floorDB(c *corpus) string { return filepath.Join(c.dir, ".git", "bench-floor.db") }

type section struct{ title, heading, body string }

// walkDocs calls fn with the contents of every Markdown file in the working
// tree, outside .git.
func walkDocs(root string, fn func(data []byte) error) (files int, err error) {
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".md") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		return fn(data)
	})
	return files, err
}

// floorRead reads every document and does nothing else.
func floorRead(c *corpus) (files int, err error) {
	return walkDocs(c.dir, func([]byte) error { return nil })
}

// floorBuild is the full-build floor with the given tokenizer. It returns
// the number of documents and of sections.
func floorBuild(c *corpus, tokenize string) (files, sections int, err error) {
	path := floorDB(c)
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return 0, 0, err
		}
	}
	defer func() {
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			os.Remove(p)
		}
	}()
	// The same journal settings as canon's index.
	db, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL&_synchronous=NORMAL")
	if err != nil {
		return 0, 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ddl := "CREATE VIRTUAL TABLE sections USING fts5(title, heading, body"
	if tokenize != "" {
		ddl += ", tokenize = '" + tokenize + "'"
	}
	if _, err := db.Exec(ddl + ")"); err != nil {
		return 0, 0, err
	}
	tx, err := db.Begin()
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	insert := func(n int) (*sql.Stmt, error) {
		q := "INSERT INTO sections(title, heading, body) VALUES " +
			strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", n), ", ")
		return tx.Prepare(q)
	}
	bulk, err := insert(floorBatch)
	if err != nil {
		return 0, 0, err
	}
	var pending []any
	flush := func(stmt *sql.Stmt) error {
		_, err := stmt.Exec(pending...)
		pending = pending[:0]
		return err
	}
	files, err = walkDocs(c.dir, func(data []byte) error {
		for _, s := range splitSections(data) {
			sections++
			pending = append(pending, s.title, s.heading, s.body)
			if len(pending) == 3*floorBatch {
				if err := flush(bulk); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	if len(pending) > 0 {
		last, err := insert(len(pending) / 3)
		if err != nil {
			return 0, 0, err
		}
		if err := flush(last); err != nil {
			return 0, 0, err
		}
	}
	return files, sections, tx.Commit()
}

// splitSections cuts a document into the text before its first heading and
// one section per ATX heading, ignoring headings inside fenced code. The
// frontmatter is skipped; its title line, if any, titles every section.
func splitSections(data []byte) []section {
	title := ""
	if rest, ok := bytes.CutPrefix(data, []byte("---\n")); ok {
		if i := bytes.Index(rest, []byte("\n---\n")); i >= 0 {
			for _, line := range bytes.Split(rest[:i], []byte("\n")) {
				if v, ok := bytes.CutPrefix(line, []byte("title:")); ok {
					title = strings.Trim(strings.TrimSpace(string(v)), `"'`)
				}
			}
			data = rest[i+5:]
		}
	}
	var out []section
	heading, start := "", 0
	fence := ""
	emit := func(end int) {
		body := string(data[start:end])
		if heading != "" || strings.TrimSpace(body) != "" {
			out = append(out, section{title, heading, body})
		}
	}
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off
		}
		line := string(data[off:end])
		next := end + 1
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```"):
			fence = "```"
		case strings.HasPrefix(trimmed, "~~~"):
			fence = "~~~"
		case isHeading(line):
			emit(off)
			heading = strings.TrimSpace(strings.TrimLeft(line, "#"))
			start = min(next, len(data))
		}
		off = next
	}
	emit(len(data))
	return out
}

func isHeading(line string) bool {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(line) || line[n] == ' ' || line[n] == '\t')
}
