package check

import (
	"fmt"
	"strings"
)

// groupCycles reports a loop in the depends_on edges between groups (a
// document of kind group, or one a group: field names): scoped context
// walks groups upstream along depends_on, and a loop has no upstream. It
// is reported once at each checked group in the loop, at its depends_on
// field.
func (c *checker) groupCycles() error {
	var checked []*doc
	for _, d := range c.full() {
		checked = append(checked, d)
	}
	if len(checked) == 0 {
		return nil
	}
	isGroup := map[int64]bool{}
	rows, err := c.q.QueryContext(c.ctx, `SELECT id FROM docs WHERE kind = 'group'
		UNION SELECT dst FROM links WHERE type = 'group' AND status = 'ok'`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		isGroup[id] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	anyChecked := false
	for _, d := range checked {
		anyChecked = anyChecked || isGroup[d.id]
	}
	if !anyChecked {
		return nil
	}
	type edge struct {
		dst       int64
		line, col int
		raw       string
	}
	deps := map[int64][]edge{}
	names := map[int64]string{}
	rows, err = c.q.QueryContext(c.ctx, `SELECT l.src, l.dst, l.line, l.col, l.raw, s.ident, s.path, d.ident, d.path
		FROM links l JOIN docs s ON s.id = l.src JOIN docs d ON d.id = l.dst
		WHERE l.type = 'depends_on' AND l.status = 'ok' ORDER BY l.src, l.seq`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var src int64
		var e edge
		var sid, spath, did, dpath string
		if err := rows.Scan(&src, &e.dst, &e.line, &e.col, &e.raw, &sid, &spath, &did, &dpath); err != nil {
			rows.Close()
			return err
		}
		if isGroup[src] && isGroup[e.dst] {
			deps[src] = append(deps[src], e)
			names[src], names[e.dst] = displayName(sid, spath), displayName(did, dpath)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, d := range checked {
		if !isGroup[d.id] {
			continue
		}
		// A path from one of d's depends_on back to d, breadth first so
		// the loop named is a shortest one.
		for _, first := range deps[d.id] {
			prev := map[int64]int64{first.dst: d.id}
			queue := []int64{first.dst}
			found := false
			for len(queue) > 0 && !found {
				g := queue[0]
				queue = queue[1:]
				if g == d.id {
					found = true
					break
				}
				for _, e := range deps[g] {
					if _, seen := prev[e.dst]; !seen {
						prev[e.dst] = g
						queue = append(queue, e.dst)
					}
				}
			}
			if !found {
				continue
			}
			loop := []string{names[d.id]}
			for g := prev[d.id]; g != d.id; g = prev[g] {
				loop = append([]string{names[g]}, loop...)
			}
			loop = append([]string{names[d.id]}, loop...)
			c.add(d.path, first.line, first.col, "group-cycle", "depends_on "+first.raw,
				fmt.Sprintf("the group dependencies loop: %s; a group cannot be upstream of itself, remove one depends_on", strings.Join(loop, " → ")))
			break
		}
	}
	return nil
}

func displayName(ident, path string) string {
	if ident != "" {
		return ident
	}
	return path
}
