package config

import (
	"fmt"
	"slices"
	"strings"
)

// MaxPrefixes bounds the prefixes map: each entry gives every document
// under its new prefix one more alias, and the map comes with the
// repository.
const MaxPrefixes = 16

// IsIDPrefix reports an id prefix as prefixes names it: a letter, then
// letters, digits, underscores or dashes, not ending in a dash (task,
// back, KB-TSK).
func IsIDPrefix(s string) bool {
	if s == "" || len(s) > 32 || s[len(s)-1] == '-' {
		return false
	}
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '_' || r == '-')) {
			return false
		}
	}
	return true
}

// checkBareNumbers checks bare_numbers (id prefixes) and lower-cases it.
func checkBareNumbers(key string, ps []string) ([]string, error) {
	if len(ps) > MaxPrefixes {
		return nil, fmt.Errorf("%s lists %d prefixes; at most %d are allowed, list the prefixes bare numbers name", key, len(ps), MaxPrefixes)
	}
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		if !IsIDPrefix(p) {
			return nil, fmt.Errorf("%s: %q is not an id prefix; write the part before the number without its last dash, such as eip", key, p)
		}
		if p = strings.ToLower(p); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// checkPrefixes checks a prefixes map (OLD: NEW) and lower-cases it.
func checkPrefixes(key string, m map[string]string) (map[string]string, error) {
	if len(m) > MaxPrefixes {
		return nil, fmt.Errorf("%s maps %d prefixes; at most %d are read, map only the prefixes references still carry", key, len(m), MaxPrefixes)
	}
	out := make(map[string]string, len(m))
	for from, to := range m {
		if !IsIDPrefix(from) || !IsIDPrefix(to) {
			return nil, fmt.Errorf("%s: %q: %q is not an id prefix; write the part before the number without its last dash, such as task: back", key, from, to)
		}
		from, to = strings.ToLower(from), strings.ToLower(to)
		if from == to {
			return nil, fmt.Errorf("%s: %s maps to itself; leave it out", key, from)
		}
		out[from] = to
	}
	for from, to := range out {
		if _, chained := out[to]; chained {
			return nil, fmt.Errorf("%s: %s maps to %s, which maps further; map each old prefix to the one in use now", key, from, to)
		}
	}
	return out, nil
}
