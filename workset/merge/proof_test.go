package merge

import (
	"fmt"
	"strings"
	"testing"
)

// TestProofCatches: the proof is a net under every rule. Given the
// frontmatter a faulty rule could write, it says why the merge does not
// hold, and Merge then merges the file line by line.
func TestProofCatches(t *testing.T) {
	lm := gitLines(t)
	for _, tc := range []struct {
		name             string
		base, ours, thrs string
		merged           string // the lines between the delimiters
		why              string
	}{{
		name:   "a value cut at #",
		base:   j("---", "refs:", "  - a", "---"),
		ours:   j("---", "refs:", "  - a", "  - b", "---"),
		thrs:   j("---", "refs:", "  - a", "  - https://example.com/spec#section-4.2", "---"),
		merged: j("refs:", "  - a", "  - b", "  - https://example.com/spec"),
		why:    "refs lacks an item one side has",
	}, {
		name:   "a quoted value cut at #: no longer parses",
		base:   j("---", "refs:", "  - a", "---"),
		ours:   j("---", "refs:", "  - a", "  - b", "---"),
		thrs:   j("---", "refs:", "  - a", `  - "see # 3"`, "---"),
		merged: j("refs:", "  - a", "  - b", `  - "see`),
		why:    "the merged frontmatter: does not parse",
	}, {
		name:   "a comment line dropped",
		base:   j("---", "refs:", "  - a", "---"),
		ours:   j("---", "refs:", "  - a", "  - b", "---"),
		thrs:   j("---", "refs:", "  - a", "  # why c", "  - c", "---"),
		merged: j("refs:", "  - a", "  - b", "  - c"),
		why:    `lacked the comment "  # why c"`,
	}, {
		name:   "a comment at the end of a line dropped",
		base:   j("---", "refs:", "  - a", "---"),
		ours:   j("---", "refs:", "  - a", "  - b", "---"),
		thrs:   j("---", "refs:", "  - a", "  - c # why c", "---"),
		merged: j("refs:", "  - a", "  - b", "  - c"),
		why:    `lacked the comment "# why c"`,
	}, {
		name:   "a comment line twice",
		base:   j("---", "a: 1", "# about b", "b: 2", "---"),
		ours:   j("---", "a: 2", "# about b", "b: 2", "---"),
		thrs:   j("---", "a: 1", "# about b", "b: 3", "---"),
		merged: j("a: 2", "# about b", "# about b", "b: 3"),
		why:    `has the comment "# about b" more times than either side`,
	}, {
		name:   "an item theirs removed kept",
		base:   j("---", "tags: [a, b]", "---"),
		ours:   j("---", "tags: [a, b, c]", "---"),
		thrs:   j("---", "tags: [a]", "---"),
		merged: j("tags: [a, b, c]"),
		why:    "tags holds an item one side removed or neither has",
	}, {
		name:   "a quoted number is not the number",
		base:   j("---", "tags: [a]", "---"),
		ours:   j("---", "tags: [a, b]", "---"),
		thrs:   j("---", "tags: [a, '1']", "---"),
		merged: j("tags: [a, b, 1]"),
		why:    "tags lacks an item one side has",
	}, {
		name:   "a scalar neither side wrote",
		base:   j("---", "title: A", "---"),
		ours:   j("---", "title: B", "---"),
		thrs:   j("---", "title: A", "---"),
		merged: j("title: C"),
		why:    "title is not the value ours wrote",
	}, {
		name:   "a field neither side has",
		base:   j("---", "title: A", "---"),
		ours:   j("---", "title: B", "---"),
		thrs:   j("---", "title: A", "---"),
		merged: j("title: B", "owner: x"),
		why:    "has owner, which neither side has",
	}, {
		name:   "the earlier date",
		base:   j("---", "updated: 2026-01-01", "---"),
		ours:   j("---", "updated: 2026-01-05", "---"),
		thrs:   j("---", "updated: 2026-01-03", "---"),
		merged: j("updated: 2026-01-03"),
		why:    "updated is not the later date",
	}, {
		name:   "both changed a scalar, and no rule joins them",
		base:   j("---", "title: A", "---"),
		ours:   j("---", "title: B", "---"),
		thrs:   j("---", "title: C", "---"),
		merged: j("title: B"),
		why:    "both sides changed title and no rule of the driver joins the two",
	}, {
		name:   "a nested value changed",
		base:   j("---", "links:", "  blocks: [A]", "  relates: [B]", "---"),
		ours:   j("---", "links:", "  blocks: [A, C]", "  relates: [B]", "---"),
		thrs:   j("---", "links:", "  blocks: [A]", "  relates: [B, 'E#1']", "---"),
		merged: j("links:", "  blocks: [A, C]", "  relates: [B, E]"),
		why:    "links.relates is not the value theirs wrote",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMerger(Options{Lines: lm})
			if _, why, err := m.merge([]byte(tc.base), []byte(tc.ours), []byte(tc.thrs)); err != nil || why != "" {
				t.Fatalf("merge: %v %s", err, why)
			}
			if why := m.prove(m.res.Merged); why != "" {
				t.Fatalf("the driver's own merge fails the proof: %s", why)
			}
			// As if no piece had conflicted: a rule wrote this.
			m.conflict, m.conflicts, m.conflicted = false, nil, nil
			a := m.sides[1]
			m.fm.Reset()
			m.alt.Reset()
			m.fm.WriteString(tc.merged)
			m.alt.WriteString(tc.merged)
			m.head = a.lines[0] + tc.merged + a.lines[a.fmEnd]
			why := m.prove([]byte(m.head + strings.Join(a.lines[a.fmEnd+1:], "")))
			if !strings.Contains(why, tc.why) {
				t.Errorf("why = %q, want %q", why, tc.why)
			}
		})
	}
}

// TestMergeBounds: past each bound the driver merges the file with git
// merge-file and says which bound. The hostile sweep's 8,000 fields and
// 60,000 items are past them; with the bounds lifted they merge field by
// field, and keep every value.
func TestMergeBounds(t *testing.T) {
	lm := gitLines(t)
	fields := func(n int, prefix string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%s%d: %d\n", prefix, i, i)
		}
		return b.String()
	}
	f8000b, f8000a, f8000t := manyFields(8000)
	l60000b, l60000a, l60000t := longList(60000)
	lifted := &limits{bytes: 1 << 30, fmBytes: 1 << 30, fields: 1 << 30, items: 1 << 30, lineMerges: maxLineMerges}
	for _, tc := range []struct {
		name             string
		base, ours, thrs string
		lim              *limits
		why              string
	}{{
		name: "8,000 fields, theirs adds 8,000",
		base: f8000b, ours: f8000a, thrs: f8000t,
		why: "a side's frontmatter is 138 KiB, more than the 128 KiB the driver merges field by field",
	}, {
		name: "8,000 fields, theirs adds 8,000, bounds lifted",
		base: f8000b, ours: f8000a, thrs: f8000t, lim: lifted,
	}, {
		name: "60,000 items",
		base: l60000b, ours: l60000a, thrs: l60000t,
		why: "a side's frontmatter is 633 KiB, more than the 128 KiB the driver merges field by field",
	}, {
		name: "60,000 items, bounds lifted",
		base: l60000b, ours: l60000a, thrs: l60000t, lim: lifted,
	}, {
		name: "a side over 1 MiB",
		base: "---\nid: T-1\n---\nx\n",
		ours: "---\nid: T-1\n---\nx\n" + strings.Repeat("y", MaxBytes-len("---\nid: T-1\n---\nx\n")) + "\n",
		thrs: "---\nid: T-2\n---\nx\n",
		why:  "a side is 1.0 MiB, more than the 1.0 MiB the driver merges field by field",
	}, {
		name: "too many keys",
		base: "---\nid: T-1\n---\n",
		ours: "---\nid: T-1\n" + fields(MaxFields, "f") + "---\n",
		thrs: "---\nid: T-2\n---\n",
		why:  "a frontmatter has 10,001 keys, more than the 10,000 the driver merges field by field",
	}, {
		name: "too many list items",
		base: "---\nid: T-1\n---\n",
		ours: "---\nid: T-1\nl:\n" + strings.Repeat("- x\n", MaxItems+1) + "---\n",
		thrs: "---\nid: T-2\n---\n",
		why:  "a frontmatter has 20,001 list items, more than the 20,000 the driver merges field by field",
	}, {
		name: "too many fields both sides changed, each a process",
		base: "---\n" + fields(maxLineMerges+1, "s") + "---\n",
		ours: "---\n" + strings.ReplaceAll(fields(maxLineMerges+1, "s"), ": ", ": ours ") + "---\n",
		thrs: "---\n" + strings.ReplaceAll(fields(maxLineMerges+1, "s"), ": ", ": theirs ") + "---\n",
		why:  "both sides changed more than 16 pieces of the frontmatter that only a line merge joins",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name == "60,000 items, bounds lifted" {
				t.Skip("slow (60,000 items merged one by one): make test runs it")
			}
			res, err := Merge([]byte(tc.base), []byte(tc.ours), []byte(tc.thrs), Options{Lines: lm, limits: tc.lim})
			if err != nil {
				t.Fatal(err)
			}
			if res.Fallback != tc.why {
				t.Errorf("fallback = %q, want %q", res.Fallback, tc.why)
			}
			if tc.why == "" {
				if res.Conflict {
					t.Error("a conflict")
				}
				if why := checkKept(tc.base, tc.ours, tc.thrs, string(res.Merged)); why != "" {
					t.Error(why)
				}
			}
		})
	}
}
