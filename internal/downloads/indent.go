package downloads

import "encoding/json"

// MarshalIndent is json.MarshalIndent(v, "", "  ") followed by a line
// break: the same bytes, indented in one pass over json.Marshal's compact
// output, where encoding/json's Indent runs its validating scanner byte
// by byte (FuzzMarshalIndent holds the two to the same bytes).
func MarshalIndent(v any) ([]byte, error) {
	compact, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(indent(make([]byte, 0, len(compact)+len(compact)/2), compact), '\n'), nil
}

// indent appends compact, valid JSON (json.Marshal's: no space outside
// strings) to dst as json.Indent(dst, compact, "", "  ") does.
func indent(dst, compact []byte) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		switch c {
		case '"':
			j := i + 1
			for ; j < len(compact) && compact[j] != '"'; j++ {
				if compact[j] == '\\' {
					j++
				}
			}
			j = min(j, len(compact)-1)
			dst = append(dst, compact[i:j+1]...)
			i = j
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(compact) && (compact[i+1] == '}' || compact[i+1] == ']') {
				dst = append(dst, compact[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
