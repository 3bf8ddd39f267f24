package wasm

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/tetratelabs/wazero"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/experimental/sysfs"
)

// mounts are the folders of one run, open for as long as it lasts.
type mounts struct {
	config wazero.FSConfig
	roots  []*os.Root
}

func (m *mounts) close() {
	for _, r := range m.roots {
		r.Close()
	}
}

// mount opens the read and write folders of cwd and mounts them under
// "/<name>", over an empty, read-only "/". Each is opened through the
// working directory's own os.Root, so a folder that is a link leading out
// of cwd is refused too.
func mount(cwd string, read, write []string) (*mounts, error) {
	m := &mounts{config: wazero.NewFSConfig().(sysfs.FSConfig).WithSysFSMount(emptyRoot{}, "/")}
	if len(read)+len(write) == 0 {
		return m, nil
	}
	first := append(append([]string(nil), read...), write...)[0]
	base, err := os.OpenRoot(cwd)
	if err != nil {
		return nil, folderError(first, cwd, err)
	}
	defer base.Close()
	for i, f := range append(append([]string(nil), read...), write...) {
		root, err := base.OpenRoot(filepath.FromSlash(f))
		if err == nil {
			var fi fs.FileInfo
			if fi, err = root.Stat("."); err == nil && !fi.IsDir() {
				err = syscall.ENOTDIR
			}
			if err != nil {
				root.Close()
			}
		}
		if err != nil {
			m.close()
			return nil, folderError(f, cwd, err)
		}
		m.roots = append(m.roots, root)
		m.config = m.config.(sysfs.FSConfig).WithSysFSMount(&rootFS{root: root, readOnly: i < len(read)}, "/"+f)
	}
	return m, nil
}

// folderError explains why folder f of dir cannot be mounted.
func folderError(f, dir string, err error) error {
	switch errnoOf(err) {
	case experimentalsys.ENOENT, experimentalsys.ENOTDIR:
		return &FolderError{Folder: f, Dir: dir}
	}
	if escapes(err) {
		return &FolderError{Folder: f, Dir: dir, Outside: true}
	}
	return fmt.Errorf("the folder %s this module may see cannot be opened in %s: %w", f, dir, err)
}
