package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// compare prints, for two runs of this benchmark (their JSON files, an
// older binary's and a newer one's), each row both runs measured: the two
// medians, new/old, and each against its floor measured in the same run,
// which is what stays comparable when the machine's load differs between
// the runs. scripts/bench_compare.sh makes the two runs.
func compare(w io.Writer, oldPath, newPath string) error {
	load := func(p string) ([]*Row, error) {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var run struct {
			Rows []*Row `json:"rows"`
		}
		if err := json.Unmarshal(data, &run); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		return run.Rows, nil
	}
	olds, err := load(oldPath)
	if err != nil {
		return err
	}
	news, err := load(newPath)
	if err != nil {
		return err
	}
	key := func(r *Row) string { return fmt.Sprintf("%s|%s|%d|%s", r.Case, r.What, r.Size, r.Label) }
	byKey := map[string]*Row{}
	for _, r := range olds {
		byKey[key(r)] = r
	}
	fmt.Fprintln(w, "| case | what | size | old | new | new/old | old vs floor | new vs floor |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, n := range news {
		o := byKey[key(n)]
		if o == nil || o.Median == 0 {
			continue
		}
		vsFloor := func(r *Row) string {
			if r.Ratio == 0 {
				return ""
			}
			return fmt.Sprintf("%.2fx", r.Ratio)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %.1f %s | %.1f %s | %.2f | %s | %s |\n", n.Case, strings.ReplaceAll(n.What, "|", "/"), n.sizeText(),
			o.Median, o.Unit, n.Median, n.Unit, n.Median/o.Median, vsFloor(o), vsFloor(n))
	}
	return nil
}
