@tool
extends SubViewportContainer
## The replay world in 3D, inside the dock: a SubViewport with a World3D of its own, an
## orbit camera (drag to orbit, middle-drag to pan, wheel to zoom), a light, and one
## MeshInstance3D per shape the player describes (get_shapes()). Click a body to pick it
## (no physics: the click's ray against the drawn shapes' bounds).
##
## Colours come from `palette` (the dock fills it from the editor theme); the fallback is
## Godot's default theme, so the view also works outside the editor.

## A click (press and release without a drag) on a body; -1 on empty space.
signal body_picked(slot: int)

## Keys: background, static, kinematic, dynamic, sleeping, selected, differing, contact.
var palette := {}
## Draw the touching contact points.
var show_contacts := false:
	set(value):
		show_contacts = value
		if contact_mesh != null:
			contact_mesh.visible = value
## The body shown as picked (-1: none).
var selected_slot := -1
## Slots drawn as differing (a diff's bodies).
var differing_slots := {}

var viewport: SubViewport
var camera: Camera3D
var light: DirectionalLight3D
var environment: Environment
var shapes_root: Node3D
var contact_mesh: MultiMeshInstance3D

var yaw := 0.7
var pitch := -0.45
var distance := 14.0
var target := Vector3.ZERO

## One MeshInstance3D per shape of the last update, and the body slot of each.
var instances: Array[MeshInstance3D] = []
var instance_slots := PackedInt32Array()
var instance_is_plane: Array[bool] = []
var instance_keys: Array[String] = []
var mesh_cache := {}
var materials := {}
var plane_extent := 50.0

var press_position := Vector2.ZERO
var dragging := false
var pressed_button := 0


func _init() -> void:
	stretch = true
	custom_minimum_size = Vector2(320, 200)
	size_flags_horizontal = Control.SIZE_EXPAND_FILL
	size_flags_vertical = Control.SIZE_EXPAND_FILL
	viewport = SubViewport.new()
	viewport.name = "Viewport"
	viewport.own_world_3d = true
	viewport.world_3d = World3D.new()
	viewport.msaa_3d = Viewport.MSAA_2X
	add_child(viewport)
	environment = Environment.new()
	environment.background_mode = Environment.BG_COLOR
	environment.ambient_light_source = Environment.AMBIENT_SOURCE_COLOR
	environment.ambient_light_energy = 0.45
	var world_env := WorldEnvironment.new()
	world_env.environment = environment
	viewport.add_child(world_env)
	light = DirectionalLight3D.new()
	light.rotation = Vector3(-0.9, 0.5, 0.0)
	viewport.add_child(light)
	camera = Camera3D.new()
	camera.name = "Camera"
	camera.near = 0.05
	camera.far = 2000.0
	viewport.add_child(camera)
	shapes_root = Node3D.new()
	shapes_root.name = "Shapes"
	viewport.add_child(shapes_root)
	contact_mesh = MultiMeshInstance3D.new()
	contact_mesh.name = "Contacts"
	contact_mesh.multimesh = MultiMesh.new()
	contact_mesh.multimesh.transform_format = MultiMesh.TRANSFORM_3D
	var dot := SphereMesh.new()
	dot.radius = 0.05
	dot.height = 0.1
	dot.radial_segments = 8
	dot.rings = 4
	contact_mesh.multimesh.mesh = dot
	contact_mesh.visible = show_contacts
	viewport.add_child(contact_mesh)
	set_palette({})
	update_camera()


## Sets the colours (missing keys come from Godot's default theme) and repaints.
func set_palette(colours: Dictionary) -> void:
	var theme := ThemeDB.get_default_theme()
	var base := theme.get_color("font_color", "Label")
	var accent := theme.get_color("font_focus_color", "LineEdit")
	var fallback := {
		"background": theme.get_color("font_outline_color", "Label").lerp(base, 0.15),
		"static": base.darkened(0.45),
		"kinematic": accent.lerp(base, 0.5),
		"dynamic": accent,
		"sleeping": base.darkened(0.65),
		"selected": theme.get_color("font_hover_color", "Button"),
		"differing": theme.get_color("font_pressed_color", "Button"),
		"contact": theme.get_color("selection_color", "LineEdit"),
	}
	palette = fallback.merged(colours, true)
	environment.background_color = palette.background
	environment.ambient_light_color = palette["static"].lerp(palette.background, 0.3)
	materials.clear()
	var dot_material := StandardMaterial3D.new()
	dot_material.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	dot_material.albedo_color = palette.contact
	dot_material.no_depth_test = true
	contact_mesh.material_override = dot_material
	for i in instances.size():
		instances[i].material_override = material_for(instances[i].get_meta(&"state", "dynamic"))


## Frames the camera on the moving bodies' shapes (on every shape but planes when
## nothing moves).
func frame_all() -> void:
	var box := AABB()
	var first := true
	var moving := false
	for inst in instances:
		moving = moving or inst.get_meta(&"state", "static") != "static"
	for i in instances.size():
		if instance_is_plane[i] or (moving and instances[i].get_meta(&"state", "static") == "static"):
			continue
		var b: AABB = instances[i].transform * instances[i].get_aabb()
		box = b if first else box.merge(b)
		first = false
	if first:
		target = Vector3.ZERO
		distance = 14.0
	else:
		target = box.get_center()
		distance = clampf(box.size.length() * 0.9, 2.0, 500.0)
	plane_extent = maxf(50.0, distance * 6.0)
	update_camera()


## Redraws from the player's current step: its shapes (and contacts when shown).
func show_step(player: Object) -> void:
	var shapes: Array = player.get_shapes()
	var bodies := {}
	for b in player.get_bodies():
		bodies[b.slot] = b
	for i in shapes.size():
		var s: Dictionary = shapes[i]
		var key := mesh_key(s)
		if i >= instances.size():
			var inst := MeshInstance3D.new()
			inst.cast_shadow = GeometryInstance3D.SHADOW_CASTING_SETTING_OFF
			shapes_root.add_child(inst)
			instances.append(inst)
			instance_slots.append(-1)
			instance_is_plane.append(false)
			instance_keys.append("")
		var inst := instances[i]
		if instance_keys[i] != key:
			inst.mesh = mesh_for(s, key)
			instance_keys[i] = key
		inst.visible = inst.mesh != null
		inst.transform = shape_transform(s)
		instance_slots[i] = int(s.body_slot)
		instance_is_plane[i] = s.kind == "plane"
		var body: Dictionary = bodies.get(int(s.body_slot), {})
		var state := state_of(int(s.body_slot), str(body.get("type", "static")), bool(s.get("sleeping", false)))
		inst.set_meta(&"state", state)
		inst.material_override = material_for(state)
	for i in range(shapes.size(), instances.size()):
		instances[i].queue_free()
	instances.resize(shapes.size())
	instance_slots.resize(shapes.size())
	instance_is_plane.resize(shapes.size())
	instance_keys.resize(shapes.size())
	if show_contacts:
		var contacts: Array = player.get_contacts()
		contact_mesh.multimesh.instance_count = contacts.size()
		for i in contacts.size():
			contact_mesh.multimesh.set_instance_transform(i, Transform3D(Basis(), contacts[i].point))
	else:
		contact_mesh.multimesh.instance_count = 0


## Removes every drawn shape.
func clear() -> void:
	for inst in instances:
		inst.queue_free()
	instances.clear()
	instance_slots.clear()
	instance_is_plane.clear()
	instance_keys.clear()
	contact_mesh.multimesh.instance_count = 0


func state_of(slot: int, type: String, sleeping: bool) -> String:
	if slot == selected_slot:
		return "selected"
	if differing_slots.has(slot):
		return "differing"
	if type == "static":
		return "static"
	if sleeping:
		return "sleeping"
	return type


func material_for(state: String) -> StandardMaterial3D:
	if not materials.has(state):
		var m := StandardMaterial3D.new()
		m.albedo_color = palette.get(state, palette.dynamic)
		m.roughness = 0.8
		if state == "static":
			m.cull_mode = BaseMaterial3D.CULL_DISABLED
		materials[state] = m
	return materials[state]


func mesh_key(s: Dictionary) -> String:
	match s.kind:
		"sphere":
			return "sphere %s" % s.radius
		"capsule", "cylinder":
			return "%s %s %s" % [s.kind, s.radius, s.half_height]
		"box":
			return "box %s" % s.half_extents
		"hull", "mesh":
			var tris: PackedVector3Array = s.triangles
			return "%s %d %d" % [s.kind, tris.size(), hash(tris)]
		"plane":
			return "plane %s" % plane_extent
		"ray":
			return "ray %s" % s.length
	return str(s.kind)


func mesh_for(s: Dictionary, key: String) -> Mesh:
	if mesh_cache.has(key):
		return mesh_cache[key]
	var mesh: Mesh = null
	match s.kind:
		"sphere":
			var m := SphereMesh.new()
			m.radius = s.radius
			m.height = s.radius * 2.0
			mesh = m
		"capsule":
			# Godot's CapsuleMesh height is the whole length, caps included.
			var m := CapsuleMesh.new()
			m.radius = s.radius
			m.height = (s.half_height + s.radius) * 2.0
			mesh = m
		"cylinder":
			var m := CylinderMesh.new()
			m.top_radius = s.radius
			m.bottom_radius = s.radius
			m.height = s.half_height * 2.0
			mesh = m
		"box":
			var m := BoxMesh.new()
			m.size = s.half_extents * 2.0
			mesh = m
		"hull", "mesh":
			mesh = triangle_mesh(s.triangles)
		"plane":
			var m := PlaneMesh.new()
			m.size = Vector2(plane_extent, plane_extent) * 2.0
			mesh = m
		"ray":
			mesh = ray_mesh(s.length)
	mesh_cache[key] = mesh
	return mesh


## A ray shape: a thin bar from the shape's origin along its +Z, `length` long.
func ray_mesh(length: float) -> ArrayMesh:
	var bar := BoxMesh.new()
	var thickness := maxf(length * 0.04, 0.01)
	bar.size = Vector3(thickness, thickness, length)
	var arrays := bar.get_mesh_arrays()
	var vertices: PackedVector3Array = arrays[Mesh.ARRAY_VERTEX]
	for i in vertices.size():
		vertices[i].z += length * 0.5
	arrays[Mesh.ARRAY_VERTEX] = vertices
	var mesh := ArrayMesh.new()
	mesh.add_surface_from_arrays(Mesh.PRIMITIVE_TRIANGLES, arrays)
	return mesh


## Flat-shaded triangles (counter-clockwise seen from outside, as the engine gives them).
func triangle_mesh(tris: PackedVector3Array) -> ArrayMesh:
	if tris.size() < 3:
		return null
	var st := SurfaceTool.new()
	st.begin(Mesh.PRIMITIVE_TRIANGLES)
	for t in range(0, tris.size() - 2, 3):
		var a := tris[t]
		var b := tris[t + 1]
		var c := tris[t + 2]
		var n := (b - a).cross(c - a).normalized()
		st.set_normal(n)
		# Godot's front faces are clockwise: add in the reverse order.
		st.add_vertex(a)
		st.add_vertex(c)
		st.add_vertex(b)
	return st.commit()


## The shape's frame in the world; a plane's quad (PlaneMesh faces +Y) turned to its normal.
func shape_transform(s: Dictionary) -> Transform3D:
	var xf: Transform3D = s.transform
	if s.kind == "plane":
		var n: Vector3 = s.get("normal", Vector3.UP).normalized()
		var side := Vector3.RIGHT if absf(n.x) < 0.9 else Vector3.FORWARD
		var x := side.cross(n).normalized()
		var z := x.cross(n)
		xf = xf * Transform3D(Basis(x, n, z), n * float(s.get("offset", 0.0)))
	return xf


func update_camera() -> void:
	var dir := Vector3(cos(pitch) * sin(yaw), -sin(pitch), cos(pitch) * cos(yaw))
	# Set as a transform: look_at needs the camera in the tree, which it is not in _init.
	camera.transform = Transform3D(Basis.looking_at(-dir, Vector3.UP), target + dir * distance)


## The body under a point of the view (its local coordinates), or -1: the nearest shape
## whose drawn bounds the click's ray enters; planes only when nothing else is hit.
func pick(point: Vector2) -> int:
	var from := camera.project_ray_origin(point)
	var dir := camera.project_ray_normal(point)
	var best := -1
	var best_t := INF
	var plane_slot := -1
	for i in instances.size():
		if not instances[i].visible:
			continue
		if instance_is_plane[i]:
			plane_slot = instance_slots[i]
			continue
		var box: AABB = instances[i].transform * instances[i].get_aabb()
		var hit = box.intersects_ray(from, dir)
		if hit == null:
			continue
		var t: float = (hit - from).dot(dir)
		if t < best_t:
			best_t = t
			best = instance_slots[i]
	return best if best >= 0 else plane_slot


func _gui_input(event: InputEvent) -> void:
	if event is InputEventMouseButton:
		match event.button_index:
			MOUSE_BUTTON_WHEEL_UP:
				distance = maxf(distance * 0.9, 0.2)
				update_camera()
				accept_event()
			MOUSE_BUTTON_WHEEL_DOWN:
				distance = minf(distance / 0.9, 2000.0)
				update_camera()
				accept_event()
			MOUSE_BUTTON_LEFT, MOUSE_BUTTON_MIDDLE, MOUSE_BUTTON_RIGHT:
				if event.pressed:
					press_position = event.position
					pressed_button = event.button_index
					dragging = false
				else:
					if not dragging and event.button_index == MOUSE_BUTTON_LEFT:
						body_picked.emit(pick(event.position))
					pressed_button = 0
				accept_event()
	elif event is InputEventMouseMotion and pressed_button != 0:
		if not dragging and event.position.distance_to(press_position) > 4.0:
			dragging = true
		if dragging:
			if pressed_button == MOUSE_BUTTON_MIDDLE or event.shift_pressed:
				var scale := distance * 0.0015
				target += (-camera.global_basis.x * event.relative.x + camera.global_basis.y * event.relative.y) * scale
			else:
				yaw -= event.relative.x * 0.01
				pitch = clampf(pitch - event.relative.y * 0.01, -1.5, 1.5)
			update_camera()
		accept_event()
