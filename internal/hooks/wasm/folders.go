package wasm

// CheckFolders says whether a run in cwd could mount the read and write
// folders a module is given (Spec.Read, Spec.Write), for mm check: nil
// when each is a folder of cwd; else the *FolderError the run would fail
// with.
func CheckFolders(cwd string, read, write []string) error {
	m, err := mount(cwd, read, write)
	if err != nil {
		return err
	}
	m.close()
	return nil
}
