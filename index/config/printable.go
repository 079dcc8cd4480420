package config

import (
	"fmt"
	"unicode"
)

// checkPrintable refuses a path or pattern of the configuration that holds
// a control character. canon writes such values into files and hands them
// to git (a root is a line of .gitattributes): a line break in one would
// make lines of its own there ("docs\n* text diff=y" gave every file of
// the repository another attribute). A tab is left: git and canon quote
// it where it goes.
func checkPrintable(field, value string) error {
	for _, r := range value {
		if r != '\t' && unicode.IsControl(r) {
			return fmt.Errorf("%s: %q holds %s; write it on one line, without control characters", field, value, controlName(r))
		}
	}
	return nil
}

// checkPrintables is checkPrintable for each of a list.
func checkPrintables(field string, values []string) error {
	for _, v := range values {
		if err := checkPrintable(field, v); err != nil {
			return err
		}
	}
	return nil
}

// controlName names a control character as the file's author knows it.
func controlName(r rune) string {
	switch r {
	case '\n':
		return "a line break"
	case '\r':
		return "a carriage return"
	case 0:
		return "a NUL byte"
	}
	return fmt.Sprintf("a control character (%U)", r)
}
