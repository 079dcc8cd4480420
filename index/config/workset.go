package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v4"
)

// Workset bounds worksets (canon workset): how long they live, how big
// they may grow and how far a search may reach to enrich one. Expansion
// itself (edges, direction, fan-out) follows the context section.
type Workset struct {
	// TTL is how long a workset lives after it is built or refreshed;
	// canon workset gc removes it after that.
	TTL time.Duration `json:"ttl"`
	// Depth is how many hops a new workset expands from its seeds.
	Depth int `json:"depth"`
	// MaxDocs is the size cap: the documents one workset may hold, at
	// creation and after --enrich.
	MaxDocs int `json:"max_docs"`
	// EnrichDistance is how many hops from the nearest member a document
	// found by a fallback search may be for --enrich to add it.
	EnrichDistance int `json:"enrich_distance"`
	// MinHits: a workset search with fewer hits than this also asks the
	// repository's index.
	MinHits int `json:"min_hits"`
}

// DefaultWorkset is the default workset configuration.
func DefaultWorkset() Workset {
	return Workset{TTL: 72 * time.Hour, Depth: 1, MaxDocs: 200, EnrichDistance: 2, MinHits: 3}
}

type worksetFile struct {
	TTL            *string `yaml:"ttl"`
	Depth          *int    `yaml:"depth"`
	MaxDocs        *int    `yaml:"max_docs"`
	EnrichDistance *int    `yaml:"enrich_distance"`
	MinHits        *int    `yaml:"min_hits"`
}

func (w *Workset) merge(n *yaml.Node) error {
	var f worksetFile
	if err := n.Load(&f, yaml.WithKnownFields()); err != nil {
		return err
	}
	if f.TTL != nil {
		d, err := ParseTTL(*f.TTL)
		if err != nil {
			return fmt.Errorf("workset.ttl: %w", err)
		}
		w.TTL = d
	}
	for _, i := range []struct {
		name     string
		src, dst *int
		min, max int
	}{
		{"depth", f.Depth, &w.Depth, 0, 10},
		{"max_docs", f.MaxDocs, &w.MaxDocs, 1, 100000},
		{"enrich_distance", f.EnrichDistance, &w.EnrichDistance, 0, 10},
		{"min_hits", f.MinHits, &w.MinHits, 0, 1000},
	} {
		if i.src == nil {
			continue
		}
		if *i.src < i.min || *i.src > i.max {
			return fmt.Errorf("workset.%s must be between %d and %d", i.name, i.min, i.max)
		}
		*i.dst = *i.src
	}
	return nil
}

// ParseTTL reads a lifetime: a Go duration (90m, 72h) or a number of days
// (3d) or weeks (2w). It must be positive.
func ParseTTL(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	var d time.Duration
	var err error
	switch {
	case strings.HasSuffix(t, "d") || strings.HasSuffix(t, "w"):
		unit := 24 * time.Hour
		if strings.HasSuffix(t, "w") {
			unit *= 7
		}
		var n float64
		n, err = strconv.ParseFloat(t[:len(t)-1], 64)
		if !(n*float64(unit) < math.MaxInt64) { // NaN and infinity too
			n = -1
		}
		d = time.Duration(n * float64(unit))
	default:
		d, err = time.ParseDuration(t)
	}
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a lifetime; write it like 72h, 3d or 2w", s)
	}
	return d, nil
}

const templateWorkset = `
# Worksets (canon workset): a slice of the graph materialised under
# .cache/worksets/NAME for one task. Expansion follows the context section
# (edges, direction, max_per_node).
workset:
  ttl: 72h                 # lifetime after creation or refresh (also 3d, 2w)
  depth: 1                 # hops from the seeds when --depth is not given
  max_docs: 200            # size cap, at creation and for --enrich
  enrich_distance: 2       # --enrich adds hits at most this many hops from a member
  min_hits: 3              # below this many workset hits, search asks the repository too
`
