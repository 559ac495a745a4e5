# Bootsmith: the disk to install Windows on, picked in WinPE before Setup starts, by the rule
# the deploy plan used (bootsmith_model::install_disk::resolve), from what Windows' storage
# cmdlets report (WinPE-StorageWMI: Get-Disk, Get-PhysicalDisk). Windows Setup names its
# disk by number (DiskID), known only here, so this program writes Setup's answer file with
# that number in place of @BOOTSMITH_DISK@; when no one disk fits, it says why, writes
# nothing and exits 1, so Setup is not started: an install never guesses.
#
# What Windows reports decides what a key can match here: serial (SerialNumber), model
# (Model), vendor (Manufacturer), size (Size), rotational (MediaType HDD or SSD; a disk that
# says neither never matches). A WWN or a device name (/dev/sda) Windows does not report in
# the plan's terms: the deploy plan refuses such hints for Windows hosts
# (install_disk_unsupported), so they never reach here. BusType tells local disks from SAN
# LUNs (Fibre Channel, iSCSI), USB disks and SD cards; WinPE has no multipath driver, so a
# disk seen through two paths shows twice with one serial, and both count as multipath.
#
# Set above this text by Bootsmith: $want_serial, $want_model, $want_vendor (empty: any);
# $want_min, $want_max (whole GiB, empty: no bound); $want_rot ('1' spinning, '0'
# solid-state, empty: any); $hinted ('1': a hint, else the default rule); $hint_words;
# $min_gib; $callback_failed and $callback_token (empty: no callback).

$ErrorActionPreference = 'Stop'

# As text keys compare: trimmed, runs of blanks as one, in lower case.
function Norm($s) {
    if ($null -eq $s) { return '' }
    return ((-split [string]$s) -join ' ').ToLowerInvariant()
}

# "local", "remote", "usb" or "sd_card", as the deploy plan says it.
function Transport($bus) {
    switch -regex ([string]$bus) {
        '^(USB|7)$' { return 'usb' }
        '^(SD|MMC|12|13)$' { return 'sd_card' }
        '^(Fibre Channel|iSCSI|6|9)$' { return 'remote' }
        default { return 'local' }
    }
}

# '1' spinning, '0' solid-state, '' unknown.
function Rotational($media) {
    switch -regex ([string]$media) {
        '^(HDD|3)$' { return '1' }
        '^(SSD|SCM|4|5)$' { return '0' }
        default { return '' }
    }
}

# Tell Bootsmith why the install stops (WinPE has the host's network: startnet.cmd set it).
function Report($why) {
    if (-not $callback_failed) { return }
    try {
        $body = ConvertTo-Json @{ token = $callback_token; reason = $why }
        Invoke-RestMethod -UseBasicParsing -Method Post -Uri $callback_failed -ContentType 'application/json' -Body $body -TimeoutSec 30 | Out-Null
    } catch {
        Write-Host "Bootsmith could not be told why: $_"
    }
}

function Refuse($why) {
    Write-Host $why
    Report $why
    exit 1
}

# The answer disk: the disk holding the UNATTEND volume (or the drive this runs from).
$answer = @()
try { $answer += @(Get-Volume -FileSystemLabel 'UNATTEND' | Get-Partition | Get-Disk | ForEach-Object { [string]$_.Number }) } catch {}
if ($Source) {
    try { $answer += @(Get-Partition -DriveLetter $Source.Substring(0, 1) | Get-Disk | ForEach-Object { [string]$_.Number }) } catch {}
}

$media = @{}
foreach ($p in @(Get-PhysicalDisk)) { $media[[string]$p.DeviceId] = $p.MediaType }
$disks = @(Get-Disk | Sort-Object Number)
$serials = @{}
foreach ($d in $disks) {
    $s = Norm $d.SerialNumber
    if ($s) { $serials[$s] = 1 + [int]$serials[$s] }
}

$all = @()
$found = @()
$qualifying = @()
foreach ($d in $disks) {
    $n = [string]$d.Number
    if ($answer -contains $n) { continue }
    $bytes = [uint64]$d.Size
    if ($bytes -eq 0) { continue }
    $gib = [uint64][math]::Floor($bytes / 1GB)
    $serial = (-split [string]$d.SerialNumber) -join ' '
    $model = (-split [string]$d.Model) -join ' '
    $vendor = (-split [string]$d.Manufacturer) -join ' '
    $rot = Rotational $media[$n]
    $tr = Transport $d.BusType
    $multipath = $serial -and $serials[(Norm $serial)] -gt 1

    $what = "disk $n ($gib GiB"
    $make = ("$vendor $model").Trim()
    if ($make) { $what += ", $make" }
    if ($serial) { $what += ", S/N $serial" }
    if ($tr -ne 'local') { $what += ", $tr" }
    if ($multipath) { $what += ', multipath' }
    $what += ')'
    $all += $what

    if ($hinted -eq '1') {
        $ok = $true
        if ($want_serial -and (Norm $want_serial) -ne (Norm $serial)) { $ok = $false }
        if ($want_model -and (Norm $want_model) -ne (Norm $model)) { $ok = $false }
        if ($want_vendor -and (Norm $want_vendor) -ne (Norm $vendor)) { $ok = $false }
        if ($want_min -and $gib -lt [uint64]$want_min) { $ok = $false }
        if ($want_max -and $gib -gt [uint64]$want_max) { $ok = $false }
        if ($want_rot -and $want_rot -ne $rot) { $ok = $false }
        if ($ok) { $found += [pscustomobject]@{ Number = $n; What = $what } }
    } elseif ($tr -eq 'local' -and -not $multipath -and $gib -ge [uint64]$min_gib) {
        $qualifying += [pscustomobject]@{ Number = $n; What = $what; Bytes = $bytes; Index = [int]$n }
    }
}
$seen = if ($all.Count) { $all -join '; ' } else { 'none' }

if ($hinted -eq '1') {
    if ($found.Count -eq 0) {
        Refuse "No disk matches the install-disk hint ($hint_words). The disks here: $seen. Change the hint (the host's install_disk, or its server group's) to name one of them."
    }
    if ($found.Count -gt 1) {
        Refuse "$($found.Count) disks match the install-disk hint ($hint_words): $(($found | ForEach-Object { $_.What }) -join '; '). Add a key that tells them apart (a serial names one disk)."
    }
    $pick = $found[0]
} else {
    if ($qualifying.Count -eq 0) {
        Refuse "No disk qualifies as the default install disk (the smallest local disk of at least $min_gib GiB, never a SAN LUN, USB disk, SD card or multipath disk). The disks here: $seen. Give the host an install_disk hint naming the disk to install on."
    }
    $pick = $qualifying | Sort-Object Bytes, Index | Select-Object -First 1
}

Write-Host "Bootsmith: installing on $($pick.What)"
# The words go into the installed callback, inside XML and a quoted PowerShell string.
$words = $pick.What -replace '[^A-Za-z0-9 ,./()_:-]', ''
$xml = [IO.File]::ReadAllText((Join-Path $Source 'autounattend.xml'))
$xml = $xml.Replace('@BOOTSMITH_DISK@', $pick.Number).Replace('@BOOTSMITH_DISK_WORDS@', $words)
New-Item -ItemType Directory -Force -Path (Split-Path $Out) | Out-Null
[IO.File]::WriteAllText($Out, $xml)
exit 0
