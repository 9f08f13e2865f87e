package downloads

import (
	"bytes"
	"errors"
	"io"
)

// Join writes data/all.csv and data/all.json from the studies'
// own downloads, read back one study at a time in id order and written out
// as they come, so that the site-wide files never hold every study's rows
// in memory (10,000 studies: some 350 MB). The bytes are those of
// marshalling every row at once (TestJoinDownloads).
func Join(ids []string, read func(name string) ([]byte, error), create func(name string) (io.WriteCloser, error)) error {
	csvOut, err := create("data/all.csv")
	if err != nil {
		return err
	}
	header, err := MarshalCSV(nil)
	if err != nil {
		return err
	}
	csvOut.Write(header)
	jsonOut, err := create("data/all.json")
	if err != nil {
		csvOut.Close()
		return err
	}
	n := 0
	for _, id := range ids {
		data, err := read("data/" + id + ".csv")
		if err != nil {
			return errors.Join(err, csvOut.Close(), jsonOut.Close())
		}
		if _, rows, ok := bytes.Cut(data, []byte("\n")); ok {
			csvOut.Write(rows)
		}
		j, err := read("data/" + id + ".json")
		if err != nil {
			return errors.Join(err, csvOut.Close(), jsonOut.Close())
		}
		if len(j) < 6 || !bytes.HasPrefix(j, []byte("[\n")) { // "[]\n": no row
			continue
		}
		if n == 0 {
			jsonOut.Write([]byte("[\n"))
		} else {
			jsonOut.Write([]byte(",\n"))
		}
		jsonOut.Write(j[2 : len(j)-3]) // without "[\n" and "\n]\n"
		n++
	}
	end := "\n]\n"
	if n == 0 {
		end = "[]\n"
	}
	jsonOut.Write([]byte(end))
	return errors.Join(csvOut.Close(), jsonOut.Close())
}
