#!/bin/sh
# Builds fuzz-seed.img: a 2 MiB NTFS volume made by mkntfs and filled through ntfs-3g.
set -e
img=$1; mnt=$2
rm -f "$img"; truncate -s 2M "$img"
mkntfs -F -f -q -L FUZZ "$img" >/dev/null 2>&1
ntfs-3g -o compression "$img" "$mnt"
cd "$mnt"
mkdir d comp empty
for i in $(seq 1 40); do echo "file $i" > "d/entry-$i.txt"; done
python3 -c "
import os
os.setxattr('comp','system.ntfs_attrib_be',bytes([0,0,8,0]))
open('comp/c.txt','w').write('compress me please '*800)
f=open('sparse.bin','wb'); f.truncate(1<<20); f.seek(300000); f.write(b'data'); f.close()
open('s.txt','w').write('main')
os.setxattr('s.txt','user.alt',b'alternate')
open('big.bin','wb').write(bytes((i*7+i//256)&255 for i in range(20000)))
open('al.txt','w').write('al')
for i in range(40): os.link('al.txt','al-'+'n'*150+str(i))
os.symlink('d/entry-1.txt','link')
"
cd /
umount "$mnt"
sleep 1
