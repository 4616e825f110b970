# pvbatch script: open a perksolve XDMF file, slice the last time step through the middle of the
# domain normal to z, colour by a field and save a PNG. Prints the bounds and the field's range as
# ParaView read them (the test compares them with the HDF5 file).
#   xvfb-run -a pvbatch render_slice.py FILE.xmf OUT.png [FIELD]
import sys

from paraview import servermanager
from paraview.simple import (ColorBy, CreateView, GetAnimationScene, OpenDataFile, Render, ResetCamera,
                             SaveScreenshot, Show, Slice, UpdatePipeline)

xmf, png = sys.argv[1], sys.argv[2]
field = sys.argv[3] if len(sys.argv) > 3 else "solution"

reader = OpenDataFile(xmf)
if reader is None:
    sys.exit(f"ParaView cannot open {xmf}")
times = list(getattr(reader, "TimestepValues", []) or [])
t = times[-1] if times else 0.0
scene = GetAnimationScene()
scene.UpdateAnimationUsingDataTimeSteps()
scene.AnimationTime = t
UpdatePipeline(time=t, proxy=reader)

info = reader.GetDataInformation()
bounds = info.GetBounds()
arr = reader.PointData[field]
lo, hi = arr.GetRange()
print(f"timesteps {len(times)} last {t}")
print("bounds " + " ".join(f"{b:.12g}" for b in bounds))
print(f"range {field} {lo:.12g} {hi:.12g}")

s = Slice(Input=reader)
s.SliceType = "Plane"
s.SliceType.Origin = [(bounds[0] + bounds[1]) / 2, (bounds[2] + bounds[3]) / 2, (bounds[4] + bounds[5]) / 2]
s.SliceType.Normal = [0.0, 0.0, 1.0]
view = CreateView("RenderView")
view.ViewSize = [480, 360]
display = Show(s, view)
ColorBy(display, ("POINTS", field))
display.RescaleTransferFunctionToDataRange(True, False)
view.CameraPosition = [s.SliceType.Origin[0], s.SliceType.Origin[1], s.SliceType.Origin[2] + 10.0]
view.CameraFocalPoint = s.SliceType.Origin
view.CameraViewUp = [0.0, 1.0, 0.0]
ResetCamera(view)
Render(view)
SaveScreenshot(png, view, ImageResolution=[480, 360])
print(f"wrote {png}")
