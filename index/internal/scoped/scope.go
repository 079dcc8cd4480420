package scoped

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// Scope levels a document's frontmatter may declare (scope:).
const (
	ScopeGlobal = "global"
	ScopeGroup  = "group"
	ScopeTask   = "task"
	ScopePath   = "path"
)

// EdgeGroup is the edge type of a group: field (the group a task or a piece
// of knowledge belongs to).
const EdgeGroup = "group"

// ScopedDoc is a document that declares a scope, with what scoped context
// needs of it.
type ScopedDoc struct {
	sqlstore.DocRef
	Scope    string   `json:"scope"`
	Group    string   `json:"group,omitempty"`    // key of the document its group: names
	Paths    []string `json:"paths,omitempty"`    // conditions.paths
	Keywords []string `json:"keywords,omitempty"` // conditions.keywords_in_task
	id       int64
}

// ScopedTask is the task a scoped pack is built for.
type ScopedTask struct {
	sqlstore.DocRef
	id    int64
	Group string   // key of its group ("" for none)
	Paths []string // its paths: field
	Text  string   // title and section text, for keywords_in_task
}

// GroupEdge is a depends_on edge between two groups.
type GroupEdge struct{ From, To string }

// ScopeData is what the index holds for one task's scoped pack: the task,
// the groups reachable from its group along depends_on, and the documents
// that declare a scope and could be in the pack. Selecting among them is
// the graph package's (graph.SelectScoped).
type ScopeData struct {
	Task   ScopedTask
	Groups map[string]sqlstore.DocRef // reachable groups by key, the task's own included
	Edges  []GroupEdge                // depends_on among those groups
	// Docs: scope global and path everywhere; group for the reachable
	// groups; task for documents linked to the task (either way).
	Docs []ScopedDoc
}

// ScopeData reads what a scoped pack for the document key needs. Queries go
// through indexes: the task's links, the group edges of the reachable
// groups, and docs_scope for global and path knowledge.
func (s *Scopes) ScopeData(ctx context.Context, key string) (*ScopeData, error) {
	d := &ScopeData{Groups: map[string]sqlstore.DocRef{}}
	var fm string
	err := s.h.DB.QueryRowContext(ctx, `SELECT `+sqlstore.DocRefCols+`, d.id, d.fm FROM docs d WHERE d.key = ?`, key).Scan(
		&d.Task.Key, &d.Task.ID, &d.Task.Path, &d.Task.Kind, &d.Task.Title, &d.Task.State, &d.Task.id, &fm)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", key, err)
	}
	d.Task.DocRef = sqlstore.NewDocRef(d.Task.Key, d.Task.ID, d.Task.Path, d.Task.Kind, d.Task.Title, d.Task.State)
	d.Task.Paths = stringList(fm, "paths")
	text, err := s.docText(ctx, d.Task.id)
	if err != nil {
		return nil, err
	}
	d.Task.Text = d.Task.Title + "\n" + text
	if d.Task.Group, err = s.edgeTarget(ctx, d.Task.id, EdgeGroup); err != nil {
		return nil, err
	}
	// The groups upstream of the task's, breadth first.
	if d.Task.Group != "" {
		queue := []string{d.Task.Group}
		for len(queue) > 0 {
			g := queue[0]
			queue = queue[1:]
			if _, seen := d.Groups[g]; seen {
				continue
			}
			var id int64
			var ref sqlstore.DocRef
			row := s.h.DB.QueryRowContext(ctx, `SELECT `+sqlstore.DocRefCols+`, d.id FROM docs d WHERE d.key = ?`, g)
			if ref, err = sqlstore.ScanDocRef(row, &id); err != nil {
				return nil, fmt.Errorf("read group %s: %w", g, err)
			}
			d.Groups[g] = ref
			deps, err := s.edgeTargets(ctx, id, "depends_on")
			if err != nil {
				return nil, err
			}
			for _, to := range deps {
				d.Edges = append(d.Edges, GroupEdge{From: g, To: to})
				queue = append(queue, to)
			}
		}
	}
	// Global and path knowledge, through the docs_scope index.
	for _, sc := range []string{ScopeGlobal, ScopePath} {
		docs, err := s.scopedDocs(ctx, `json_extract(d.fm, '$.scope') = ?`, sc)
		if err != nil {
			return nil, err
		}
		d.Docs = append(d.Docs, docs...)
	}
	// Group knowledge of the reachable groups.
	if len(d.Groups) > 0 {
		keys := make([]any, 0, len(d.Groups))
		for k := range d.Groups {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i].(string) < keys[j].(string) })
		docs, err := s.scopedDocs(ctx, `json_extract(d.fm, '$.scope') = 'group' AND d.id IN (SELECT l.src FROM links l JOIN docs g ON g.id = l.dst
			WHERE l.type = 'group' AND l.status = 'ok' AND g.key IN (`+strings.TrimSuffix(strings.Repeat("?,", len(keys)), ",")+`))`, keys...)
		if err != nil {
			return nil, err
		}
		d.Docs = append(d.Docs, docs...)
	}
	// Task knowledge linked to the task, either way.
	docs, err := s.scopedDocs(ctx, `json_extract(d.fm, '$.scope') = 'task' AND d.id IN (
			SELECT dst FROM links WHERE src = ? AND status = 'ok' UNION SELECT src FROM links WHERE dst = ? AND status = 'ok')`,
		d.Task.id, d.Task.id)
	if err != nil {
		return nil, err
	}
	d.Docs = append(d.Docs, docs...)
	sort.Slice(d.Docs, func(i, j int) bool { return d.Docs[i].Key < d.Docs[j].Key })
	return d, nil
}

// scopedDocs reads the scoped documents a condition on docs d selects, with
// their group (the target of their group edge).
func (s *Scopes) scopedDocs(ctx context.Context, where string, args ...any) ([]ScopedDoc, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT `+sqlstore.DocRefCols+`, d.id, coalesce(json_extract(d.fm, '$.scope'), ''),
			coalesce(json_extract(d.fm, '$.conditions'), '{}'),
			coalesce((SELECT g.key FROM links l JOIN docs g ON g.id = l.dst WHERE l.src = d.id AND l.type = 'group' AND l.status = 'ok' ORDER BY l.seq LIMIT 1), '')
		FROM docs d WHERE `+where+` ORDER BY d.key`, args...)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (ScopedDoc, error) {
		var sd ScopedDoc
		var cond string
		ref, err := sqlstore.ScanDocRef(r, &sd.id, &sd.Scope, &cond, &sd.Group)
		if err != nil {
			return sd, err
		}
		sd.DocRef = ref
		sd.Scope = strings.ToLower(strings.TrimSpace(sd.Scope))
		sd.Paths = stringList(cond, "paths")
		sd.Keywords = stringList(cond, "keywords_in_task")
		return sd, nil
	})
}

// edgeTarget is the key of the first resolved edge of a type from a
// document ("" when there is none).
func (s *Scopes) edgeTarget(ctx context.Context, id int64, typ string) (string, error) {
	var key string
	err := s.h.DB.QueryRowContext(ctx, `SELECT g.key FROM links l JOIN docs g ON g.id = l.dst
		WHERE l.src = ? AND l.type = ? AND l.status = 'ok' ORDER BY l.seq LIMIT 1`, id, typ).Scan(&key)
	if err == sql.ErrNoRows {
		return "", nil
	}
	return key, err
}

// edgeTargets are the keys of the resolved edges of a type from a document,
// in source order.
func (s *Scopes) edgeTargets(ctx context.Context, id int64, typ string) ([]string, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT g.key FROM links l JOIN docs g ON g.id = l.dst
		WHERE l.src = ? AND l.type = ? AND l.status = 'ok' ORDER BY l.seq`, id, typ)
	if err != nil {
		return nil, err
	}
	return sqlstore.ScanAll(rows, func(r *sql.Rows) (string, error) {
		var k string
		return k, r.Scan(&k)
	})
}

// docText is a document's section text, in order.
func (s *Scopes) docText(ctx context.Context, id int64) (string, error) {
	rows, err := s.h.DB.QueryContext(ctx, `SELECT f.body FROM chunks c JOIN chunks_fts f ON f.rowid = c.id WHERE c.doc = ? ORDER BY c.seq`, id)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	err = sqlstore.EachRow(rows, func(r *sql.Rows) error {
		var t string
		if err := r.Scan(&t); err != nil {
			return err
		}
		b.WriteString(t)
		b.WriteByte('\n')
		return nil
	})
	return b.String(), err
}

// stringList reads a list of strings (or one string) at a top-level field
// of a JSON object; anything else is no list.
func stringList(obj, field string) []string {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(obj), &m) != nil {
		return nil
	}
	raw, ok := m[field]
	if !ok {
		return nil
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	var one string
	if json.Unmarshal(raw, &one) == nil && one != "" {
		return []string{one}
	}
	return nil
}

// ScopeOverview is what canon scope suggest counts: the groups and their
// depends_on edges, the task and group knowledge, the documents linked with
// each piece of task knowledge, and the group of each linked document.
type ScopeOverview struct {
	Groups    map[string]sqlstore.DocRef   // every group (kind group, or named by a group: field)
	Edges     []GroupEdge                  // depends_on between groups
	Knowledge []ScopedDoc                  // scope: task and scope: group documents
	Linked    map[string][]sqlstore.DocRef // task knowledge key → documents linked with it, either way
	GroupOf   map[string]string            // linked document key → its group's key
}

// ScopeOverview reads the scope overview of the whole repository.
func (s *Scopes) ScopeOverview(ctx context.Context) (*ScopeOverview, error) {
	o := &ScopeOverview{Groups: map[string]sqlstore.DocRef{}, Linked: map[string][]sqlstore.DocRef{}, GroupOf: map[string]string{}}
	rows, err := s.h.DB.QueryContext(ctx, `SELECT `+sqlstore.DocRefCols+` FROM docs d WHERE d.kind = 'group'
		OR d.id IN (SELECT dst FROM links WHERE type = 'group' AND status = 'ok') ORDER BY d.key`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		r, err := sqlstore.ScanDocRef(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		o.Groups[r.Key] = r
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = s.h.DB.QueryContext(ctx, `SELECT s.key, d.key FROM links l JOIN docs s ON s.id = l.src JOIN docs d ON d.id = l.dst
		WHERE l.type = 'depends_on' AND l.status = 'ok' ORDER BY s.key, l.seq`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var e GroupEdge
		if err := rows.Scan(&e.From, &e.To); err != nil {
			rows.Close()
			return nil, err
		}
		if _, ok := o.Groups[e.From]; ok {
			if _, ok := o.Groups[e.To]; ok {
				o.Edges = append(o.Edges, e)
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if o.Knowledge, err = s.scopedDocs(ctx, `json_extract(d.fm, '$.scope') IN ('task', 'group')`); err != nil {
		return nil, err
	}
	for _, k := range o.Knowledge {
		if k.Scope != ScopeTask {
			continue
		}
		rows, err := s.h.DB.QueryContext(ctx, `SELECT `+sqlstore.DocRefCols+`,
				coalesce((SELECT g.key FROM links gl JOIN docs g ON g.id = gl.dst WHERE gl.src = d.id AND gl.type = 'group' AND gl.status = 'ok' ORDER BY gl.seq LIMIT 1), '')
			FROM docs d WHERE d.id IN (SELECT dst FROM links WHERE src = ? AND status = 'ok' UNION SELECT src FROM links WHERE dst = ? AND status = 'ok')
			ORDER BY d.key`, k.id, k.id)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var g string
			r, err := sqlstore.ScanDocRef(rows, &g)
			if err != nil {
				rows.Close()
				return nil, err
			}
			if r.Key != k.Key {
				o.Linked[k.Key] = append(o.Linked[k.Key], r)
				o.GroupOf[r.Key] = g
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return o, nil
}
