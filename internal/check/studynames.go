package check

import "github.com/perflab/perflab/internal/yamlfile"

// NamesOfStudy reads, from a study.yaml, the names its prose may write in
// Latin script in any language: the model (each part of its id), the
// engines' ids and names, and the GPU. A file that does not parse names
// nothing; the loader reports it.
func NamesOfStudy(studyYAML []byte) []string {
	var s struct {
		Model    string `yaml:"model"`
		Hardware struct {
			GPU string `yaml:"gpu"`
		} `yaml:"hardware"`
		Engines []struct {
			ID   string `yaml:"id"`
			Name string `yaml:"name"`
		} `yaml:"engines"`
	}
	if yamlfile.Unmarshal(studyYAML, &s) != nil {
		return nil
	}
	names := []string{s.Model, s.Hardware.GPU}
	for _, e := range s.Engines {
		names = append(names, e.ID, e.Name)
	}
	return names
}
