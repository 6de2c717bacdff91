@tool
extends EditorPlugin
# The physics server is registered by the GDExtension itself (maul3d.gdextension), before
# any plugin runs; select it with Project Settings > Physics > 3D > Physics Engine = Maul3D
# (restart the editor). This plugin only makes the addon show in the plugin list.
