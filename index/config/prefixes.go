package config

import (
	"fmt"
	"regexp"
	"strings"
)

// prefixWord is an id prefix: letters, then letters, digits or
// underscores (task, back, KB_TSK).
var prefixWord = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// checkPrefixes checks a prefixes map (OLD: NEW) and lower-cases it.
func checkPrefixes(key string, m map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(m))
	for from, to := range m {
		if !prefixWord.MatchString(from) || !prefixWord.MatchString(to) {
			return nil, fmt.Errorf("%s: %q: %q is not an id prefix; write the letters before the dash, such as task: back", key, from, to)
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
