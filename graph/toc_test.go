package graph

import (
	"context"
	"reflect"
	"testing"

	"github.com/canon-md/canon/index/config"
)

func TestTOCText(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"- [Summary](#summary)\n- [Motivation](#motivation)\n  - [Goals](#goals)\n":    true,
		"1. [Summary](#summary)\n2. [Motivation](#motivation)\n3. [Design](#design)\n": true,
		"<!-- toc -->\n- [A](#a)\n- [B](#b)\n- [C](#c)\n<!-- /toc -->\n":               true,
		"- [A](#a)\n- [B](#b)\n": false, // two links
		"We decided.\n- [A](#a)\n- [B](#b)\n- [C](#c)\nBecause of X.\nAnd Y.\nAnd Z.\n": false, // prose
		"- [Backlog.md](https://x.y)\n- [Other](other.md)\n- [Third](third.md#x)\n":     false, // other pages
		"- [x] #1 done\n- [ ] #2 open\n- [ ] #3 open\n":                                 false, // a checklist
	} {
		if got := tocText(text); got != want {
			t.Errorf("tocText(%q) = %v, want %v", text, got, want)
		}
	}
}

// A pack never quotes a table of contents: a seed quotes its next
// heaviest sections instead, and the pack for a task names its table of
// contents among what it did not quote.
func TestPacksSkipTablesOfContents(t *testing.T) {
	t.Parallel()
	toc := "## Table of Contents\n- [Summary](#summary)\n- [Motivation](#motivation)\n- [Design](#design)\n"
	f := newFixture(t, map[string]string{
		"k.md": "---\nid: K-1\ntype: Task\ntitle: Node swap\nstate: Ready\n---\n# Node swap\n" + toc +
			"## Summary\nSwap on nodes.\n## Motivation\nMemory pressure.\n## Design\nA kubelet flag.\n",
	})
	opt := OptionsFrom(config.DefaultContext())
	opt.Seeds = []string{"K-1"}
	p, err := f.g.Pack(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	var heads []string
	for _, x := range p.Entries[0].Excerpts {
		heads = append(heads, x.Heading)
	}
	if want := []string{"Summary", "Motivation"}; !reflect.DeepEqual(heads, want) {
		t.Fatalf("the seed quotes %v, want %v: never its table of contents", heads, want)
	}
	sp, err := f.g.ScopedPack(context.Background(), ScopedArgs{For: "K-1", Options: OptionsFrom(config.DefaultContext()), Shares: config.DefaultContext().Scopes})
	if err != nil {
		t.Fatal(err)
	}
	var omitted []string
	for _, o := range sp.Omitted {
		omitted = append(omitted, o.Reason+":"+o.Section)
	}
	if want := []string{"section_toc:Table of Contents"}; !reflect.DeepEqual(omitted, want) {
		t.Fatalf("the task's pack omitted %v, want %v", omitted, want)
	}
	for _, x := range sp.Entries[0].Excerpts {
		if x.Heading == "Table of Contents" {
			t.Fatalf("the task's pack quotes its table of contents")
		}
	}
}
