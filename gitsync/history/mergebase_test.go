package history

import (
	"errors"
	"fmt"
	"testing"

	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/go-git/go-git/v5/plumbing"
)

// graph is a history in memory: commit name → parents, times by order.
type graph map[string][]string

func hash(name string) plumbing.Hash {
	var h plumbing.Hash
	copy(h[:], fmt.Sprintf("%-20s", name))
	return h
}

func (g graph) reader(when map[string]int64) Reader {
	return func(h plumbing.Hash) (gitfile.Commit, bool, error) {
		for name, parents := range g {
			if hash(name) != h {
				continue
			}
			c := gitfile.Commit{When: when[name]}
			for _, p := range parents {
				c.Parents = append(c.Parents, hash(p))
			}
			return c, true, nil
		}
		return gitfile.Commit{}, false, nil
	}
}

// TestMergeBases: one walk places every ref, a criss-cross takes the
// newest best ancestor, a ref with no shared history gets "", and a walk
// past its budget says so.
func TestMergeBases(t *testing.T) {
	//   root ─ a ─ b ─ head
	//           \    \
	//            c ─ d (ref1: d; ref2: c)   e (ref3, its own root)
	g := graph{"root": nil, "a": {"root"}, "b": {"a"}, "head": {"b"}, "c": {"a"}, "d": {"c", "b"}, "e": nil}
	when := map[string]int64{"root": 1, "a": 2, "b": 3, "c": 4, "d": 5, "head": 6, "e": 7}
	read := g.reader(when)
	name := map[string]string{}
	for n := range g {
		name[hash(n).String()] = n
	}
	bases, err := MergeBases(read, hash("head").String(), []string{hash("d").String(), hash("c").String(), hash("e").String()}, Budget)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{name[bases[0]], name[bases[1]], bases[2]}
	if want := []string{"b", "a", ""}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("bases %v, want %v", got, want)
	}
	if _, err := MergeBases(read, hash("head").String(), []string{hash("e").String()}, 2); !errors.Is(err, ErrBudget) {
		t.Fatalf("a walk of 2 commits: %v, want ErrBudget", err)
	}
}
