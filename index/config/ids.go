package config

import (
	"fmt"
	"regexp"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// IDs says how canon id next mints ids and what the pre-push hook does
// with ids the remote minted too (ADR-0044).
type IDs struct {
	// Scheme is sequential (the highest number plus one: the default),
	// random (a lowercase-hex suffix, Digits long) or time (a sortable
	// suffix of the millisecond time and random bits).
	Scheme string `json:"scheme"`
	// Digits is the length of a random suffix.
	Digits int `json:"digits"`
	// BlockPush makes the pre-push hook refuse a push whose commits mint an
	// id the remote side minted too.
	BlockPush bool `json:"block_push"`
}

// The id schemes.
const (
	SchemeSequential = "sequential"
	SchemeRandom     = "random"
	SchemeTime       = "time"
)

// Schemes are the id schemes, in the order the docs list them.
var Schemes = []string{SchemeSequential, SchemeRandom, SchemeTime}

// Bounds of ids.digits: below 4 a random id collides within a few hundred
// items; above 16 it is longer than a person reads.
const (
	MinIDDigits     = 4
	MaxIDDigits     = 16
	DefaultIDDigits = 6
)

// TimeSuffixLen is the length of a time-scheme suffix: 9 Crockford
// base32 digits of the millisecond Unix time (to the year 3084) and 4 of
// random bits (20 bits: two clones minting in the same millisecond
// collide once in a million).
const TimeSuffixLen = 13

// Base32 is Crockford's lowercase alphabet: its digits sort in ASCII order,
// so time-scheme ids sort by time, and it leaves out i, l, o and u.
const Base32 = "0123456789abcdefghjkmnpqrstvwxyz"

// DefaultIDs is the sequential scheme.
func DefaultIDs() IDs {
	return IDs{Scheme: SchemeSequential, Digits: DefaultIDDigits}
}

type idsFile struct {
	Scheme    *string `yaml:"scheme"`
	Digits    *int    `yaml:"digits"`
	BlockPush *bool   `yaml:"block_push"`
}

func (ids *IDs) merge(n *yaml.Node) error {
	var f idsFile
	if err := n.Load(&f, yaml.WithKnownFields()); err != nil {
		return err
	}
	if f.Scheme != nil {
		s := strings.ToLower(strings.TrimSpace(*f.Scheme))
		known := false
		for _, k := range Schemes {
			known = known || s == k
		}
		if !known {
			return fmt.Errorf("ids.scheme: %q is not an id scheme; write %s", *f.Scheme, strings.Join(Schemes, ", "))
		}
		ids.Scheme = s
	}
	if f.Digits != nil {
		if *f.Digits < MinIDDigits || *f.Digits > MaxIDDigits {
			return fmt.Errorf("ids.digits: %d is not between %d and %d; write the number of hex digits of a random id, 6 by default", *f.Digits, MinIDDigits, MaxIDDigits)
		}
		ids.Digits = *f.Digits
	}
	if f.BlockPush != nil {
		ids.BlockPush = *f.BlockPush
	}
	return nil
}

// Minted reports whether the scheme mints ids of its own shape (random,
// time) rather than numbers.
func (ids IDs) Minted() bool {
	return ids.Scheme == SchemeRandom || ids.Scheme == SchemeTime
}

// SuffixLen is the length of the suffix the scheme mints (0 for
// sequential).
func (ids IDs) SuffixLen() int {
	switch ids.Scheme {
	case SchemeRandom:
		if ids.Digits == 0 {
			return DefaultIDDigits
		}
		return ids.Digits
	case SchemeTime:
		return TimeSuffixLen
	}
	return 0
}

// alphabet is what a minted suffix is written in.
func (ids IDs) alphabet() string {
	if ids.Scheme == SchemeTime {
		return Base32
	}
	return "0123456789abcdef"
}

// Split splits an id the scheme minted into its prefix and suffix:
// KB-TSK-7f3a9c is KB-TSK- and 7f3a9c. The prefix starts with a letter and
// ends in a character that is not a digit (as a numbered id's does); the
// suffix is the scheme's length, in its alphabet, and holds a digit (a
// word such as "defaced" is not a suffix). ok is false for the sequential
// scheme.
func (ids IDs) Split(id string) (prefix, suffix string, ok bool) {
	n := ids.SuffixLen()
	if n == 0 || len(id) <= n {
		return "", "", false
	}
	prefix, suffix = id[:len(id)-n], id[len(id)-n:]
	c := prefix[0]
	if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') || strings.ContainsAny(prefix[len(prefix)-1:], "0123456789.") {
		return "", "", false
	}
	if strings.Trim(suffix, ids.alphabet()) != "" || !strings.ContainsAny(suffix, "0123456789") {
		return "", "", false
	}
	return prefix, suffix, true
}

// standIns are numbers a minted suffix is checked in place of: an id
// pattern written for numbered ids (^KB-TSK-[0-9]{4,}$, ^ADR-[0-9]+$)
// accepts one of them where it accepts the series.
var standIns = []string{"0001", "1", "000001", "00000001"}

// Matches reports whether id matches the pattern re, or, under a random or
// time scheme, is an id the scheme minted whose prefix the pattern accepts
// with a number in place of the suffix: the id rules of canon check and
// canon init take such ids as the repository's own.
func (ids IDs) Matches(re *regexp.Regexp, id string) bool {
	if re.MatchString(id) {
		return true
	}
	prefix, _, ok := ids.Split(id)
	if !ok {
		return false
	}
	for _, n := range standIns {
		if re.MatchString(prefix + n) {
			return true
		}
	}
	return false
}
