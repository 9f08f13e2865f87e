package yamlfile

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError returns the 1-based line and the message of a YAML syntax error.
// yaml.v3 prints the line a construct started on, sometimes counted from
// zero, not the line of the error; the error is on the first line at which a
// prefix of the document fails with the same message. Once a prefix fails
// that way, longer ones do too, so a binary search finds that line in
// O(log n) parses: a linear search made a hostile 20,000-line file take
// hours.
func yamlError(data []byte, err error) (int, string) {
	line, msg := 1, yamlMessage(err)
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		fmt.Sscan(m[1], &line)
	}
	ends := lineEnds(data)
	fails := func(n int) bool { // the first n lines fail with msg
		var doc yaml.Node
		perr := yaml.Unmarshal(data[:ends[n-1]], &doc)
		return perr != nil && yamlMessage(perr) == msg
	}
	if len(ends) == 0 || !fails(len(ends)) {
		return line, msg
	}
	lo, hi := 1, len(ends) // fails(hi) holds; find the smallest such line
	for lo < hi {
		mid := lo + (hi-lo)/2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, msg
}

// yamlMessage is a yaml.v3 error without its "yaml: line N: " prefix.
func yamlMessage(err error) string {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		return m[2]
	}
	return strings.TrimPrefix(err.Error(), "yaml: ")
}

// lineEnds returns the offset just past each line of data.
func lineEnds(data []byte) []int {
	var ends []int
	for i, b := range data {
		if b == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		ends = append(ends, len(data))
	}
	return ends
}
